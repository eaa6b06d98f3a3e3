(define (problem escape-room-p02)
  (:domain escape-room)
  (:objects entrance bookshelf fireplace corner - spot
            wall-safe cabinet - container
            brass-key iron-key - key
            torn-page - note)
  (:init
    (at entrance)
    (connected entrance bookshelf) (connected bookshelf entrance)
    (connected entrance fireplace) (connected fireplace entrance)
    (connected fireplace corner) (connected corner fireplace)
    (lying-at torn-page bookshelf)
    (container-at wall-safe fireplace) (locked wall-safe)
    (code-opens torn-page wall-safe)
    (inside brass-key wall-safe)
    (container-at cabinet corner) (locked cabinet) (fits brass-key cabinet)
    (inside iron-key cabinet)
    (exit-at entrance) (opens-exit iron-key))
  (:goal (escaped)))
