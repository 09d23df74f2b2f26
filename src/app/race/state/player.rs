//! The player: where on the timeline, playing or not, and how fast.

use super::{RaceAction, RaceState};

impl RaceState {
    /// The player's actions (a step is clamped to the schedule; playing
    /// stops at its end).
    pub(super) fn play(&mut self, action: RaceAction) {
        let len = self.scenario.schedule.len();
        match action {
            RaceAction::Goto(step) => {
                self.step = step.min(len);
                self.playing = false;
            }
            RaceAction::Next => self.step = (self.step + 1).min(len),
            RaceAction::Prev => {
                self.step = self.step.saturating_sub(1);
                self.playing = false;
            }
            RaceAction::End => {
                self.step = len;
                self.playing = false;
            }
            RaceAction::Play => {
                if self.step >= len {
                    self.step = 0;
                }
                self.playing = len > 0;
            }
            RaceAction::Pause => self.playing = false,
            RaceAction::Tick if self.playing => {
                self.step = (self.step + 1).min(len);
                self.playing = self.step < len;
            }
            RaceAction::SetSpeed(ms) => self.speed = ms.clamp(100, 5000),
            _ => {}
        }
    }
}
