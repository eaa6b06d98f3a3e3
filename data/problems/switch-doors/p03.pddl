(define (problem switch-doors-p03)
  (:domain switch-doors)
  (:objects lobby gallery library cellar tower study garden - room
            d1 d2 d3 d4 d5 d6 d7 d8 - door
            brass-lever steel-lever oak-lever - lever
            stone-button glass-button - button
            sapphire topaz - gem)
  (:init
    (in lobby)
    (connects d1 lobby gallery) (connects d1 gallery lobby)
    (connects d2 lobby library) (connects d2 library lobby)
    (connects d3 gallery cellar) (connects d3 cellar gallery)
    (connects d4 library tower) (connects d4 tower library)
    (connects d5 cellar study) (connects d5 study cellar)
    (connects d6 tower study) (connects d6 study tower)
    (connects d7 study garden) (connects d7 garden study)
    (connects d8 lobby garden) (connects d8 garden lobby)
    (lever-in brass-lever lobby) (lever-in steel-lever cellar)
    (lever-in oak-lever tower)
    (opens-when-up brass-lever d1) (opens-when-down brass-lever d2)
    (opens-when-up steel-lever d3)
    (opens-when-up oak-lever d6) (opens-when-down oak-lever d4)
    (button-in stone-button study) (button-in glass-button gallery)
    (toggles stone-button d5) (toggles stone-button d7)
    (toggles glass-button d8) (toggles glass-button d1)
    (open d2) (open d4)
    (gem-in sapphire cellar) (gem-in topaz garden))
  (:goal (and (holding sapphire) (holding topaz) (in lobby))))
