//! Race links past the end, and which releases run a race differently.

use super::tests::interleavings;
use super::*;
use crate::app::link;
use crate::app::view_state::ViewState;
use crate::kube::KubeVersion;
use crate::sim::timeline::replay;

#[test]
fn a_link_with_a_step_past_the_end_opens_at_the_last_step() {
    for (id, scenario) in library() {
        let len = scenario.schedule.len();
        for step in [len + 1, len + 100, usize::MAX] {
            let link = RaceLink::shipped(id, None, step);
            // Through the link's own encoding, as a shared link arrives.
            let decoded = link::decode::<RaceLink>(&link::encode(&link)).unwrap();
            let state = RaceState::from_link(decoded).unwrap();
            assert_eq!(state.step, len, "{id} at {step}");
            let last = state.current().expect("the last step is shown");
            assert_eq!(last.index + 1, len);
            // And the link it gives back says the last step.
            assert_eq!(state.link().step, len);
        }
        // With another release, the clamp holds too.
        let link = RaceLink {
            kubernetes: Some("1.27".parse().unwrap()),
            ..RaceLink::shipped(id, None, usize::MAX)
        };
        assert_eq!(RaceState::from_link(link).unwrap().step, len);
    }
}

#[test]
fn release_differences_name_exactly_the_releases_that_answer_otherwise() {
    for (id, _) in library() {
        let state = RaceState::load(id);
        // Shipped as shipped: the marks come with the page.
        let differs = state.release_differences().expect("bundled");
        let now = state.cluster().choice();
        assert!(!differs.contains(&now), "{id}");
        let answers = |v: KubeVersion| {
            let scenario = crate::sim::timeline::Scenario {
                kubernetes: Some(v),
                ..state.scenario.clone()
            };
            replay(&scenario, state.preset).map(|r| {
                r.steps
                    .into_iter()
                    .map(|s| (s.object, s.response.map(|r| (r.code, r.reason, r.message))))
                    .collect::<Vec<_>>()
            })
        };
        let here = answers(now);
        for v in KubeVersion::choices() {
            let same = answers(v) == here;
            assert_eq!(differs.contains(&v), !same, "{id} on {v}");
        }
    }
}

#[test]
fn a_replayed_interleaving_is_told_by_its_own_story() {
    use crate::sim::story::Story;
    use crate::strategy::Preset;
    let state = RaceState::default();
    assert_eq!(
        state.interleaving_story(),
        None,
        "the scenario's own order: its description"
    );
    let explored = state.reduce(RaceAction::ToggleExplore).replayed_here();
    let exploration =
        crate::sim::explore::explore(&explored.running(), &[]).expect("the scenario explores");
    let n = exploration.interleavings.len();
    assert_eq!(interleavings(&explored), exploration.interleavings);
    assert!(n > 2);
    let mut told = std::collections::BTreeSet::new();
    for index in [0, n / 2, n - 1] {
        let opened = explored
            .reduce(RaceAction::OpenInterleaving {
                index,
                preset: Preset::KubevirtMain,
                step: 0,
            })
            .replayed_here();
        let (story, number, of) = opened.interleaving_story().expect("an interleaving");
        assert_eq!((number, of), (index + 1, n));
        // The explorer's story of that interleaving, which is the replay's.
        assert_eq!(
            Some(&story),
            exploration.story(Preset::KubevirtMain, index),
            "interleaving {index}"
        );
        assert_eq!(story, Story::of_replay(&opened.replay_here().unwrap()));
        told.insert(story.describe());
        // Opened from its link (no explorer run): the same story.
        let again = RaceState::from_link(opened.link()).unwrap().replayed_here();
        assert_eq!(again.interleaving_story().unwrap().0, story);
    }
    assert!(told.len() > 1, "different orders, different stories");
}

#[test]
fn writers_never_retried_are_named() {
    for (id, scenario) in library() {
        let state = RaceState::load(id);
        let explored = crate::sim::explore::explore(scenario, &[]);
        if let Ok(exploration) = explored {
            assert_eq!(state.never_retried(), exploration.without_retry, "{id}");
        }
    }
}

#[test]
fn an_interleaving_opened_from_its_link_numbers_the_orders_as_the_scenario_does() {
    use crate::strategy::Preset;
    let explored = RaceState::default()
        .reduce(RaceAction::ToggleExplore)
        .replayed_here();
    let n = interleavings(&explored).len();
    for index in [1, n / 2, n - 1] {
        let opened = explored.reduce(RaceAction::OpenInterleaving {
            index,
            preset: Preset::KubevirtMain,
            step: 0,
        });
        let again = RaceState::from_link(opened.link()).unwrap().replayed_here();
        assert_eq!(
            again.exploration(),
            explored.exploration(),
            "interleaving {index}"
        );
        // Opening "#N" from its table opens the same order again.
        let reopened = again.reduce(RaceAction::OpenInterleaving {
            index,
            preset: Preset::KubevirtMain,
            step: 0,
        });
        assert_eq!(reopened.scenario.schedule, opened.scenario.schedule);
    }
}
