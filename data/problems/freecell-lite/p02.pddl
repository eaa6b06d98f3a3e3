(define (problem freecell-lite-p02)
  (:domain freecell-lite)
  (:objects h1 h2 h3 h4 s1 s2 s3 s4 - card
            col1 col2 col3 - column
            cell1 - freecell
            hearts spades - suit
            r0 r1 r2 r3 r4 - rank)
  (:init
    (on h1 col1) (on h3 h1) (on s1 h3) (clear s1) (on s2 col2) (on h2 s2)
    (on h4 h2) (clear h4) (on s4 col3) (on s3 s4) (clear s3) (cell-free cell1)
    (suit-of h1 hearts) (suit-of h2 hearts) (suit-of h3 hearts)
    (suit-of h4 hearts) (suit-of s1 spades) (suit-of s2 spades)
    (suit-of s3 spades) (suit-of s4 spades) (rank-of h1 r1) (rank-of h2 r2)
    (rank-of h3 r3) (rank-of h4 r4) (rank-of s1 r1) (rank-of s2 r2)
    (rank-of s3 r3) (rank-of s4 r4) (stackable h1 s2) (stackable h2 s3)
    (stackable h3 s4) (stackable s1 h2) (stackable s2 h3) (stackable s3 h4)
    (next-rank r0 r1) (next-rank r1 r2) (next-rank r2 r3) (next-rank r3 r4)
    (home-top hearts r0) (home-top spades r0))
  (:goal (and (home-top hearts r4) (home-top spades r4))))
