(define (problem freecell-lite-p01)
  (:domain freecell-lite)
  (:objects h1 h2 s1 s2 - card
            col1 col2 - column
            cell1 - freecell
            hearts spades - suit
            r0 r1 r2 - rank)
  (:init
    (on h1 col1) (on s2 h1) (clear s2) (on s1 col2) (on h2 s1) (clear h2)
    (cell-free cell1) (suit-of h1 hearts) (suit-of h2 hearts)
    (suit-of s1 spades) (suit-of s2 spades) (rank-of h1 r1) (rank-of h2 r2)
    (rank-of s1 r1) (rank-of s2 r2) (stackable h1 s2) (stackable s1 h2)
    (next-rank r0 r1) (next-rank r1 r2) (home-top hearts r0)
    (home-top spades r0))
  (:goal (and (home-top hearts r2) (home-top spades r2))))
