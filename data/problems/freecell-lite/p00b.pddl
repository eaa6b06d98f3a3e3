(define (problem freecell-lite-p00b)
  (:domain freecell-lite)
  (:objects h1 s2 c3 d4 - card
            col1 col2 col3 col4 - column
            hearts spades clubs diamonds - suit
            r0 r1 r2 r3 r4 - rank)
  (:init
    (on h1 col1) (clear h1)
    (on s2 col2) (clear s2)
    (on d4 col3) (on c3 d4) (clear c3)
    (clear col4)
    (suit-of h1 hearts) (suit-of s2 spades) (suit-of c3 clubs) (suit-of d4 diamonds)
    (rank-of h1 r1) (rank-of s2 r2) (rank-of c3 r3) (rank-of d4 r4)
    (stackable h1 s2)
    (next-rank r0 r1) (next-rank r1 r2) (next-rank r2 r3) (next-rank r3 r4)
    (home-top hearts r0) (home-top spades r0) (home-top clubs r0) (home-top diamonds r0))
  (:goal (and (on h1 s2) (on c3 col4))))
