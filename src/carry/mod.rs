//! Devices kwb cannot reach from here (a GPU box whose commands run over a
//! copied tree, a board with no network): candidates are built here into a
//! pack, the pack is carried to the device and run there with TVM's runtime
//! alone (`run.sh`, the engine's `carried.py`: the same checks and paired
//! timing as locally), and the results come back as a table.

pub mod gpu_route;
pub mod l2;
pub mod pack;
pub mod report;
pub mod results_file;
pub mod runtime;
