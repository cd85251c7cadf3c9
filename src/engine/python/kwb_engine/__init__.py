"""kwb engine worker: TVM jobs behind a newline-delimited JSON protocol on stdio.

The Rust side (src/engine/) starts, supervises and sandboxes these processes;
nothing here talks to the network or reads the user's files except the task
directories and artifacts it is pointed at.
"""

PROTOCOL_VERSION = 1
