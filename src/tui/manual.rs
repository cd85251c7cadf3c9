//! Manual mode: the person edits a layer in $EDITOR; the file is watched
//! and every save that changes it is evaluated as a new node, chained on
//! the previous save.

use super::action::{Action, Msg};
use super::background::Tx;
use super::requests::ManualRequest;
use crate::eval::Evaluator;
use crate::tasks::TaskSet;
use notify::{EventKind, RecursiveMode, Watcher};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn send(tx: &Tx, m: Msg) {
    let _ = tx.send(Action::Msg(m));
}

pub async fn watch_and_evaluate(ev: Arc<Evaluator>, tasks: Arc<TaskSet>, req: ManualRequest, session: PathBuf, file: PathBuf, tx: Tx) -> anyhow::Result<()> {
    let task = tasks.get(&req.task)?.clone();
    let (saved_tx, mut saved) = tokio::sync::mpsc::unbounded_channel();
    let name = file.file_name().map(|n| n.to_os_string());
    let mut watcher = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
        if let Ok(e) = r
            && matches!(e.kind, EventKind::Modify(_) | EventKind::Create(_))
            && e.paths.iter().any(|p| p.file_name().map(|n| n.to_os_string()) == name)
        {
            let _ = saved_tx.send(());
        }
    })?;
    // Editors often save by writing a new file and renaming it: watch the folder.
    watcher.watch(file.parent().unwrap(), RecursiveMode::NonRecursive)?;
    send(&tx, Msg::ManualStatus(format!("watching {} · every save is evaluated", file.display())));
    let mut last_text = req.text.clone();
    let mut parent = req.parent;
    let mut sent = crate::session::load(&session).map(|l| l.events.len()).unwrap_or(0);
    let mut announced = session.exists();
    while saved.recv().await.is_some() {
        // Let the editor finish writing, and fold a burst of events into one save.
        tokio::time::sleep(Duration::from_millis(150)).await;
        while saved.try_recv().is_ok() {}
        let Ok(text) = std::fs::read_to_string(&file) else { continue };
        if text == last_text {
            continue;
        }
        last_text = text.clone();
        send(&tx, Msg::ManualStatus(format!("evaluating the save (edit of #{parent})")));
        let outcome = super::background::apply_save(&ev, &task, &session, parent, &req, text).await;
        if !announced && session.exists() {
            send(&tx, Msg::RunStarted { session: session.clone(), mode: super::requests::Mode::Manual });
            announced = true;
        }
        if let Ok(loaded) = crate::session::load(&session) {
            for e in loaded.events.into_iter().skip(sent) {
                sent += 1;
                send(&tx, Msg::RunEvent(e));
            }
        }
        match outcome? {
            Ok(id) => {
                parent = id;
                send(&tx, Msg::ManualStatus(format!("saved as #{id}; the next save builds on it")));
            }
            Err(refused) => send(&tx, Msg::ManualStatus(format!("refused: {refused}"))),
        }
    }
    Ok(())
}
