(define (problem freecell-lite-p00c)
  (:domain freecell-lite)
  (:objects h2 s3 - card
            col1 col2 - column
            cell1 - freecell
            hearts spades - suit
            r0 r1 r2 r3 - rank)
  (:init
    (on s3 col1) (clear s3)
    (in-cell h2 cell1)
    (clear col2)
    (suit-of h2 hearts) (suit-of s3 spades)
    (rank-of h2 r2) (rank-of s3 r3)
    (next-rank r0 r1) (next-rank r1 r2) (next-rank r2 r3)
    (home-top hearts r0) (home-top spades r0))
  (:goal (on h2 col2)))
