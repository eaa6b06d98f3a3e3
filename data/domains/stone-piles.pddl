(define (domain stone-piles)
  (:requirements :strips :negative-preconditions :disjunctive-preconditions
                 :universal-preconditions :equality :conditional-effects)
  (:constants n0)
  (:predicates
    (player ?x)
    (pile ?x)
    (stones ?p ?n)
    (minus ?n ?k ?rest)
    (takeable ?k)
    (empty ?p)
    (to-move ?pl)
    (opponent ?pl ?other)
    (winner ?pl))

  (:action take
    :parameters (?pl ?other ?p ?n ?k ?rest)
    :precondition (and (to-move ?pl) (opponent ?pl ?other) (pile ?p)
                       (stones ?p ?n) (takeable ?k) (minus ?n ?k ?rest))
    :effect (and (stones ?p ?rest)
                 (to-move ?other)
                 (not (stones ?p ?n))
                 (not (to-move ?pl))
                 (when (= ?rest n0) (empty ?p))))

  (:action declare-winner
    :parameters (?loser ?w)
    :precondition (and (to-move ?loser) (opponent ?loser ?w) (player ?w)
                       (forall (?q) (or (not (pile ?q)) (empty ?q))))
    :effect (and (winner ?w)
                 (not (to-move ?loser)))))
