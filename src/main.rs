fn main() -> std::process::ExitCode {
    kwb::cli::main()
}
