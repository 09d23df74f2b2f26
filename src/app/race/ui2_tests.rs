//! Race links past the end, and which releases run a race differently.

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
        let differs = state.release_differences();
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
