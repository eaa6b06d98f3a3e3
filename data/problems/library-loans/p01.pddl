(define (problem library-loans-p01)
  (:domain library-loans)
  (:objects alice bob - member
            dune atlas - book
            n0 n1 n2 - level)
  (:init (next n0 n1) (next n1 n2)
         (loanable dune) (loanable atlas)
         (on-loan dune bob) (unreserved dune)
         (on-shelf atlas) (unreserved atlas)
         (loan-count alice n0) (loan-count bob n1)
         (may-hold alice n1) (may-hold alice n2)
         (may-hold bob n1))
  (:goal (and (on-loan dune alice) (on-loan atlas alice))))
