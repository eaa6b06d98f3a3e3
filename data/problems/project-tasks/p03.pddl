(define (problem project-tasks-p03)
  (:domain project-tasks)
  (:objects design-a build-a test-a - task
            maya-a - worker
            engineering-a - skill
            prototype-a - milestone
            requirements-b ui-design-b api-design-b backend-b frontend-b integration-b docs-b release-b - task
            maya-b noah-b olga-b - worker
            analysis-b design-b coding-b writing-b - skill
            beta-b launch-b - milestone)
  (:init
    (depends-on build-a design-a) (depends-on test-a build-a) (depends-on test-a design-a) (pending design-a)
    (pending build-a) (pending test-a) (requires-skill design-a engineering-a) (requires-skill build-a engineering-a)
    (requires-skill test-a engineering-a) (has-skill maya-a engineering-a) (idle maya-a) (part-of design-a prototype-a)
    (part-of build-a prototype-a) (part-of test-a prototype-a) (depends-on ui-design-b requirements-b) (depends-on api-design-b requirements-b)
    (depends-on backend-b api-design-b) (depends-on frontend-b ui-design-b) (depends-on frontend-b api-design-b) (depends-on integration-b backend-b)
    (depends-on integration-b frontend-b) (depends-on docs-b api-design-b) (depends-on release-b integration-b) (depends-on release-b docs-b)
    (pending requirements-b) (pending ui-design-b) (pending api-design-b) (pending backend-b)
    (pending frontend-b) (pending integration-b) (pending docs-b) (pending release-b)
    (requires-skill requirements-b analysis-b) (requires-skill ui-design-b design-b) (requires-skill api-design-b design-b) (requires-skill backend-b coding-b)
    (requires-skill frontend-b coding-b) (requires-skill integration-b coding-b) (requires-skill docs-b writing-b) (requires-skill release-b analysis-b)
    (has-skill maya-b analysis-b) (has-skill maya-b design-b) (has-skill noah-b coding-b) (has-skill olga-b design-b)
    (has-skill olga-b writing-b) (idle maya-b) (idle noah-b) (idle olga-b)
    (part-of requirements-b beta-b) (part-of ui-design-b beta-b) (part-of api-design-b beta-b) (part-of backend-b beta-b)
    (part-of frontend-b beta-b) (part-of integration-b launch-b) (part-of docs-b launch-b) (part-of release-b launch-b))
  (:goal (and (reached prototype-a)
              (reached beta-b) (reached launch-b) (has-skill noah-b analysis-b))))
