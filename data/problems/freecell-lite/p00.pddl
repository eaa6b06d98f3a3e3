(define (problem freecell-lite-p00)
  (:domain freecell-lite)
  (:objects h1 s2 d3 - card
            col1 - column
            cell1 cell2 - freecell
            hearts spades diamonds - suit
            r0 r1 r2 r3 - rank)
  (:init
    (on d3 col1) (clear d3)
    (in-cell s2 cell1) (in-cell h1 cell2)
    (suit-of h1 hearts) (suit-of s2 spades) (suit-of d3 diamonds)
    (rank-of h1 r1) (rank-of s2 r2) (rank-of d3 r3)
    (stackable s2 d3)
    (next-rank r0 r1) (next-rank r1 r2) (next-rank r2 r3)
    (home-top hearts r0) (home-top spades r0) (home-top diamonds r0))
  (:goal (and (on s2 d3) (home-top hearts r1))))
