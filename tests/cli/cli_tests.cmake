# reproduce_paper run as a user runs it: exit status and message of --help, --version and bad
# command lines (the in-process tests are in unit/reproduce_cli_test.cpp).
function(sabandit_cli_test name exit expect)
  add_test(NAME "cli: ${name}"
           COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:reproduce_paper>" "-DARGS=${ARGN}"
                   "-DEXIT=${exit}" "-DEXPECT=${expect}" -P "${CMAKE_CURRENT_LIST_DIR}/expect.cmake")
  set_tests_properties("cli: ${name}" PROPERTIES LABELS cli)
endfunction()

sabandit_cli_test("version" 0 "^reproduce_paper \\(sabandit ${PROJECT_VERSION}\\)\n$" --version)
sabandit_cli_test("help" 0 "Usage: reproduce_paper.*figure1.*ablation.*tune.*models" --help)
sabandit_cli_test("figure1 help" 0 "--trials INT=50.*--params" figure1 --help)
sabandit_cli_test("negative trials" 2 "^reproduce_paper: --trials must be ≥ 1 \\(got -5\\)\n" figure1 --trials -5)
sabandit_cli_test("zero trials" 2 "^reproduce_paper: --trials must be ≥ 1 \\(got 0\\)\n" figure1 -R 0)
sabandit_cli_test("models zero trials" 2 "^reproduce_paper: --trials must be ≥ 1 \\(got 0\\)\n" models -R 0)
sabandit_cli_test("negative seed" 2 "--seed must be an integer in \\[0, 18446744073709551615\\] \\(got '-1'\\)" figure1 --seed -1)
sabandit_cli_test("seed 2^64" 2 "--seed must be an integer" figure1 --seed 18446744073709551616)
sabandit_cli_test("unknown subcommand" 2 "unknown subcommand 'figure2'; valid subcommands: figure1, ablation, tune, models" figure2)
sabandit_cli_test("no subcommand" 2 "A subcommand is required")
sabandit_cli_test("trials overflow" 2 "--horizon \\(T\\) x --trials \\(R\\) is too large.*overflows 64 bits" figure1 -R 4611686018427387904)
sabandit_cli_test("rungs overflow" 2 "--initial-trials x --eta\\^\\(--rungs - 1\\) is too large" tune --rungs 50 --initial-trials 1)
sabandit_cli_test("missing params file" 2 "cannot open parameter file /nonexistent/p.txt" figure1 --params /nonexistent/p.txt)
