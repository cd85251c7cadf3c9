//! A proposal waiting for review: accept, reject, edit it, or ask again with a hint.

use super::super::{App, Level, PromptPurpose};
use crate::agent::{Decision, EditProposal};
use crate::ir::Layer;
use crate::tui::action::Command;
use crate::tui::requests::{Effect, EditorPurpose};

impl App {
    pub(super) fn review_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            Accept | Reject => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(if c == Accept { Decision::Accept } else { Decision::Reject });
                    self.run.status = format!("{} the proposal from {}", if c == Accept { "accepted" } else { "rejected" }, r.agent);
                }
            }
            EditProposal => {
                if let Some(r) = &self.review {
                    let text = r.proposal.body.editable_text();
                    let suffix = if r.proposal.layer == Layer::L2 { ".ll" } else { ".py" };
                    self.effects.push(Effect::OpenEditor { text, suffix, purpose: EditorPurpose::Proposal });
                }
            }
            RetryWithHint => {
                if self.review.is_some() {
                    self.prompt(PromptPurpose::Hint, String::new());
                }
            }
            _ => return false,
        }
        true
    }

    /// The person's edit of the proposal under review comes back from $EDITOR.
    pub(in crate::tui::app) fn proposal_edited(&mut self, text: Option<String>) {
        let Some(r) = self.review.take() else { return };
        match text {
            Some(t) => {
                let p = &r.proposal;
                let body = p.body.edited(t);
                let edited = EditProposal { layer: p.layer, kernel: p.kernel.clone(), body, rationale: format!("{} (edited by a person)", p.rationale) };
                let _ = r.reply.send(Decision::Replace(edited));
                self.run.status = "applied the edited proposal".into();
            }
            None => {
                self.toast(Level::Info, "the editor left the proposal unchanged; it still waits for a decision");
                self.review = Some(r);
            }
        }
    }
}
