(define (domain stone-piles)
  (:requirements :strips :typing :negative-preconditions :universal-preconditions)
  (:types player pile count)
  (:predicates
    (stones ?p - pile ?n - count)
    (minus ?n - count ?k - count ?rest - count)
    (takeable ?k - count)
    (zero ?n - count)
    (empty ?p - pile)
    (to-move ?pl - player)
    (opponent ?pl - player ?other - player)
    (winner ?pl - player))

  (:action take-some
    :parameters (?pl - player ?other - player ?p - pile ?n - count ?k - count ?rest - count)
    :precondition (and (to-move ?pl) (opponent ?pl ?other)
                       (stones ?p ?n) (takeable ?k) (minus ?n ?k ?rest) (not (zero ?rest)))
    :effect (and (stones ?p ?rest)
                 (to-move ?other)
                 (not (stones ?p ?n))
                 (not (to-move ?pl))))

  (:action take-rest
    :parameters (?pl - player ?other - player ?p - pile ?n - count ?k - count ?rest - count)
    :precondition (and (to-move ?pl) (opponent ?pl ?other)
                       (stones ?p ?n) (takeable ?k) (minus ?n ?k ?rest) (zero ?rest))
    :effect (and (stones ?p ?rest)
                 (empty ?p)
                 (to-move ?other)
                 (not (stones ?p ?n))
                 (not (to-move ?pl))))

  (:action declare-winner
    :parameters (?loser - player ?w - player)
    :precondition (and (to-move ?loser) (opponent ?loser ?w)
                       (forall (?q - pile) (empty ?q)))
    :effect (and (winner ?w)
                 (not (to-move ?loser)))))
