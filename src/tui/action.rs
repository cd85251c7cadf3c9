//! Everything that changes the workbench's state is an [`Action`]. Keys,
//! mouse, the palette, agents, the engine and replay all end up here, and
//! help, the hint bar and the palette are generated from [`REGISTRY`], so
//! they cannot drift from the bindings.

use crate::session::Event;

/// A named action a person can bind to a key or pick from the palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    Quit,
    Help,
    Palette,
    Cancel,
    NextTab,
    PrevTab,
    TabTasks,
    TabTree,
    TabIr,
    TabDiff,
    TabProfile,
    TabTrace,
    TabJobs,
    ExpandPane,
    ToggleMouse,
    ReloadConfig,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Left,
    Right,
    Filter,
    CycleSuite,
    OpenTask,
    ToggleCollapse,
    ExpandAll,
    CollapseAll,
    JumpBest,
    Branch,
    Mark,
    ClearMarks,
    CycleLayer,
    NextKernel,
    PrevKernel,
    ToggleSideBySide,
    DiffAgainst,
    Search,
    SearchNext,
    SearchPrev,
    OpenSession,
    TogglePause,
    StepForward,
    StepBack,
    Faster,
    Slower,
    JumpToNode,
    JumpToEvent,
    Resume,
    RunStep,
    RunAuto,
    ManualEdit,
    StopRun,
    CycleStrategy,
    CycleNextLayer,
    Accept,
    Reject,
    EditProposal,
    RetryWithHint,
    PickDevice,
}

pub struct Entry {
    pub command: Command,
    pub name: &'static str,
    pub group: &'static str,
    pub description: &'static str,
}

macro_rules! registry {
    ($($cmd:ident, $name:literal, $group:literal, $desc:literal;)*) => {
        pub const REGISTRY: &[Entry] = &[$(Entry { command: Command::$cmd, name: $name, group: $group, description: $desc }),*];
    };
}

registry! {
    Quit, "quit", "general", "Leave the workbench";
    Help, "help", "general", "Show every action and its keys";
    Palette, "palette", "general", "Run any action by name";
    Cancel, "cancel", "general", "Close the popup or clear the pending keys";
    NextTab, "next_tab", "general", "Next screen";
    PrevTab, "prev_tab", "general", "Previous screen";
    TabTasks, "tab_tasks", "general", "Task browser";
    TabTree, "tab_tree", "general", "Candidate tree";
    TabIr, "tab_ir", "general", "IR view";
    TabDiff, "tab_diff", "general", "Diff";
    TabProfile, "tab_profile", "general", "Profiler";
    TabTrace, "tab_trace", "general", "Speedup trace";
    TabJobs, "tab_jobs", "general", "Engine, jobs and log";
    ExpandPane, "expand_pane", "general", "Give the focused pane the whole screen";
    ToggleMouse, "toggle_mouse", "general", "Turn mouse support on or off";
    ReloadConfig, "reload_config", "general", "Reload keymap and theme";
    Up, "up", "navigate", "Move up";
    Down, "down", "navigate", "Move down";
    PageUp, "page_up", "navigate", "Page up";
    PageDown, "page_down", "navigate", "Page down";
    Top, "top", "navigate", "Go to the top";
    Bottom, "bottom", "navigate", "Go to the bottom";
    Left, "left", "navigate", "Move left / collapse";
    Right, "right", "navigate", "Move right / expand";
    Filter, "filter", "tasks", "Filter tasks by text";
    CycleSuite, "cycle_suite", "tasks", "Show the next suite";
    OpenTask, "open_task", "tasks", "Open the task (its latest session, if any)";
    ToggleCollapse, "toggle_collapse", "tree", "Collapse or expand the node";
    ExpandAll, "expand_all", "tree", "Expand every node";
    CollapseAll, "collapse_all", "tree", "Collapse every node";
    JumpBest, "jump_best", "tree", "Select the best node";
    Branch, "branch", "tree", "Branch from the selected node (next run starts there)";
    Mark, "mark", "tree", "Mark the node for a diff (two marks compare)";
    ClearMarks, "clear_marks", "tree", "Clear the marks";
    CycleLayer, "cycle_layer", "ir", "Show the next layer (L0, L1, L2)";
    NextKernel, "next_kernel", "ir", "Show the next kernel";
    PrevKernel, "prev_kernel", "ir", "Show the previous kernel";
    ToggleSideBySide, "toggle_side_by_side", "diff", "Unified or side by side";
    DiffAgainst, "diff_against", "diff", "Diff against the parent or the marked nodes";
    Search, "search", "diff", "Search the text";
    SearchNext, "search_next", "diff", "Next match";
    SearchPrev, "search_prev", "diff", "Previous match";
    OpenSession, "open_session", "replay", "Open a session file";
    TogglePause, "toggle_pause", "replay", "Play/pause the replay, or pause/resume the run";
    StepForward, "step_forward", "replay", "Replay one event forward";
    StepBack, "step_back", "replay", "Replay one event back";
    Faster, "faster", "replay", "Replay faster";
    Slower, "slower", "replay", "Replay slower";
    JumpToNode, "jump_to_node", "replay", "Replay to the moment the selected node was evaluated";
    JumpToEvent, "jump_to_event", "replay", "Replay to an event number";
    Resume, "resume", "run", "Continue the session live from the selected node";
    RunStep, "run_step", "run", "Run the strategy in step mode (review each proposal)";
    RunAuto, "run_auto", "run", "Run the strategy in auto mode (within budget)";
    ManualEdit, "manual_edit", "run", "Edit the node's layer in $EDITOR; every save is evaluated";
    StopRun, "stop_run", "run", "Stop the run or the manual edit";
    CycleStrategy, "cycle_strategy", "run", "Choose the strategy (layered, flat, one-shot)";
    CycleNextLayer, "cycle_next_layer", "run", "Choose which layer works next";
    Accept, "accept", "review", "Accept the proposal";
    Reject, "reject", "review", "Reject the proposal";
    EditProposal, "edit_proposal", "review", "Edit the proposal in $EDITOR, then apply it";
    RetryWithHint, "retry_with_hint", "review", "Ask the agent again with a hint";
    PickDevice, "pick_device", "run", "Choose the device candidates are timed on (kwb devices)";
}

impl Command {
    pub fn entry(self) -> &'static Entry {
        REGISTRY.iter().find(|e| e.command == self).expect("every command is registered")
    }
    pub fn name(self) -> &'static str {
        self.entry().name
    }
    pub fn description(self) -> &'static str {
        self.entry().description
    }
    pub fn from_name(name: &str) -> Option<Self> {
        REGISTRY.iter().find(|e| e.name == name).map(|e| e.command)
    }
}

/// What the update code consumes: a person's command, or something that
/// happened in the background. Internal variants are not in the registry.
// A handful of actions move per frame, each once: boxing the large message
// variants would add noise for no measurable gain.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Action {
    Command(Command),
    /// A key press (the open prompt or palette takes it, else the keymap).
    Input(crossterm::event::KeyEvent),
    /// Time passed (drives replay playback and spinners).
    Tick { ms: u64 },
    Resize { width: u16, height: u16 },
    ClickRow { x: u16, y: u16 },
    Scroll { down: bool },
    Msg(Msg),
}

/// What background work reports.
#[derive(Debug)]
pub enum Msg {
    TasksLoaded(Result<std::sync::Arc<crate::tasks::TaskSet>, String>),
    SessionIndex(Vec<super::sessions::SessionSummary>),
    SessionLoaded { path: std::path::PathBuf, result: Result<crate::session::Loaded, String> },
    EngineStarting(String),
    EngineReady,
    /// What the workers' sandbox applied (one line per role), and whether
    /// every layer is in force.
    SandboxReport(Vec<String>, bool),
    EngineFailed(String),
    RunStarted { session: std::path::PathBuf, mode: super::requests::Mode },
    RunEvent(Event),
    RunFinished(Result<String, String>),
    Review(super::requests::ReviewRequest),
    ManualStatus(String),
    Log(String),
    ConfigChanged,
    EditorClosed { purpose: super::requests::EditorPurpose, text: Option<String> },
    /// A task's model.py, as asked for by [`Effect::ReadTaskSource`](super::requests::Effect::ReadTaskSource).
    TaskSource { task: String, text: String },
    /// The configuration read again after [`Effect::ReloadConfig`](super::requests::Effect::ReloadConfig).
    ConfigLoaded(Box<super::config::Config>),
    /// Something the runtime wants the person to see (an editor that would not start, say).
    Notice(super::app::Level, String),
    /// The configured devices, probed, as asked for by [`Effect::ListDevices`](super::requests::Effect::ListDevices).
    Devices(Result<Vec<super::requests::DeviceRow>, String>),
    /// The engine now times on this device (or why it was not switched).
    DeviceSwitched(Result<String, String>),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for e in REGISTRY {
            assert!(seen.insert(e.name), "duplicate {}", e.name);
            assert_eq!(Command::from_name(e.name), Some(e.command));
            assert!(!e.description.is_empty());
        }
    }
}
