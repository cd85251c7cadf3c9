//! Step mode: the proposal waiting for a decision, with a preview of what it
//! changes (a diff against the parent's text at that layer).

use crate::session::EditBody;
use crate::tui::app::App;
use crate::tui::components::{block, fit, styled};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn draw(f: &mut Frame, app: &App, body: Rect) {
    let Some(r) = &app.review else { return };
    let p = &r.proposal;
    // As tall as the proposal needs, within the lower part of the screen.
    let wanted = match &p.body {
        EditBody::Trace(steps) => steps.len() as u16 + 3,
        EditBody::Traces(traces) => traces.iter().map(|(_, steps)| steps.len() as u16 + 1).sum::<u16>() + 3,
        EditBody::Text(_) => 16,
    };
    let h = wanted.clamp(5, body.height.saturating_sub(2).clamp(5, 16));
    let rect = Rect { x: body.x + 1, y: body.y + body.height.saturating_sub(h), width: body.width.saturating_sub(2), height: h };
    f.render_widget(Clear, rect);
    let title = format!("{} proposes {}{} from #{} · a accept · r reject · e edit · h hint · x stop", r.agent, p.layer, p.kernel.as_deref().map(|k| format!(" {k}")).unwrap_or_default(), r.parent);
    let b = block(app, fit(&title, rect.width.saturating_sub(4) as usize));
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let mut lines = vec![Line::from(styled(app, "ui.text", p.rationale.clone()))];
    let old = app.session.as_ref().and_then(|s| s.tree.get(r.parent)).and_then(|n| n.record.texts.text(p.layer, p.kernel.as_deref())).unwrap_or("");
    match &p.body {
        EditBody::Trace(steps) => {
            for s in steps {
                lines.push(Line::from(styled(app, "diff.plus", format!("+ {s}"))));
            }
        }
        EditBody::Traces(traces) => {
            for (kernel, steps) in traces {
                lines.push(Line::from(styled(app, "ui.dim", format!("`{kernel}`"))));
                lines.extend(steps.iter().map(|s| Line::from(styled(app, "diff.plus", format!("+ {s}")))));
            }
        }
        EditBody::Text(new) => {
            let d = crate::diff::diff(old, new, 1);
            lines.push(Line::from(styled(app, "ui.dim", format!("+{} -{} lines", d.inserted, d.deleted))));
            for l in d.hunks.iter().flat_map(|h| h.lines.iter()) {
                let (sign, key) = match l.tag {
                    crate::diff::Tag::Equal => (' ', "ui.dim"),
                    crate::diff::Tag::Delete => ('-', "diff.minus"),
                    crate::diff::Tag::Insert => ('+', "diff.plus"),
                };
                lines.push(Line::from(styled(app, key, format!("{sign}{}", l.text()))));
                if lines.len() > inner.height as usize {
                    break;
                }
            }
        }
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}
