# reproduce_paper (and problem_suite, contextual_benchmark) run as a user runs it: exit status and
# message of --help, --version and bad command lines (the in-process tests are in
# unit/reproduce_cli_test.cpp).
function(sabandit_cli_test name exit expect)
  sabandit_program_test(reproduce_paper "${name}" "${exit}" "${expect}" ${ARGN})
endfunction()
function(sabandit_program_test program name exit expect)
  add_test(NAME "cli: ${name}"
           COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:${program}>" "-DARGS=${ARGN}"
                   "-DEXIT=${exit}" "-DEXPECT=${expect}" -P "${CMAKE_CURRENT_LIST_DIR}/expect.cmake")
  set_tests_properties("cli: ${name}" PROPERTIES LABELS cli)
endfunction()

sabandit_cli_test("version" 0 "^reproduce_paper \\(sabandit ${PROJECT_VERSION}\\)\n$" --version)
sabandit_cli_test("help" 0 "Usage: reproduce_paper.*figure1.*ablation.*tune" --help)
sabandit_cli_test("figure1 help" 0 "--trials INT=50.*--params" figure1 --help)
sabandit_cli_test("negative trials" 2 "^reproduce_paper: --trials must be ≥ 1 \\(got -5\\)\n" figure1 --trials -5)
sabandit_cli_test("zero trials" 2 "^reproduce_paper: --trials must be ≥ 1 \\(got 0\\)\n" figure1 -R 0)
sabandit_cli_test("negative seed" 2 "--seed must be an integer in \\[0, 18446744073709551615\\] \\(got '-1'\\)" figure1 --seed -1)
sabandit_cli_test("seed 2^64" 2 "--seed must be an integer" figure1 --seed 18446744073709551616)
sabandit_cli_test("unknown subcommand" 2 "unknown subcommand 'figure2'; valid subcommands: figure1, ablation, tune\n" figure2)
sabandit_cli_test("no subcommand" 2 "A subcommand is required")
# Arguments no option takes: in their order, with the job whose option it is, or a near miss.
sabandit_cli_test("misspelt option" 2 "^reproduce_paper: figure1: unexpected argument\\(s\\): --trails 5 \\(did you mean --trials\\?\\)\n" figure1 --trails 5)
sabandit_cli_test("option before its subcommand" 2 "figure1: unexpected argument\\(s\\): --trials 5 \\(--trials is an option of 'figure1': give it after the subcommand" --trials 5 figure1)
sabandit_cli_test("another job's option" 2 "figure1: unexpected argument\\(s\\): --env XYZ \\(--env is an option of 'tune'\\)" figure1 --env XYZ)
sabandit_cli_test("trials overflow" 2 "--horizon \\(T\\) x --trials \\(R\\) is too large.*overflows 64 bits" figure1 -R 4611686018427387904)
sabandit_cli_test("rungs overflow" 2 "--initial-trials x --eta\\^\\(--rungs - 1\\) is too large" tune --rungs 50 --initial-trials 1)
# problem_suite: sabandit's own evaluation, its two jobs checked by the same code.
sabandit_program_test(problem_suite "suite version" 0 "^problem_suite \\(sabandit ${PROJECT_VERSION}\\)\n$" --version)
sabandit_program_test(problem_suite "suite help" 0 "Usage: problem_suite.*problems.*models" --help)
sabandit_program_test(problem_suite "suite zero trials" 2 "^problem_suite: --trials must be ≥ 1 \\(got 0\\)\n" models -R 0)
sabandit_program_test(problem_suite "suite unknown subcommand" 2 "unknown subcommand 'figure1'; valid subcommands: problems, models" figure1)
# contextual_benchmark: one job, the program itself; the options checked by the same code.
sabandit_program_test(contextual_benchmark "contextual version" 0 "^contextual_benchmark \\(sabandit ${PROJECT_VERSION}\\)\n$" --version)
sabandit_program_test(contextual_benchmark "contextual help" 0 "Usage: contextual_benchmark.*--tune-trials.*--datasets" --help)
sabandit_program_test(contextual_benchmark "contextual zero trials" 2 "^contextual_benchmark: --trials must be ≥ 1 \\(got 0\\)\n" -R 0)
sabandit_program_test(contextual_benchmark "contextual stray argument" 2 "^contextual_benchmark: unexpected argument\\(s\\): figure1\n" figure1)
sabandit_cli_test("unwritable out" 2 "^reproduce_paper: --out /proc/sabandit is not a writable folder" figure1 -T 10 -R 1 --no-plots --out /proc/sabandit)
sabandit_cli_test("missing params file" 2 "cannot open parameter file /nonexistent/p.txt" figure1 --params /nonexistent/p.txt)

# Issue 11: the tune job's protocol and TS-SA search space are named choices; the paper protocol
# tunes every (K, gap) itself, so a single setting's --arms or --gap is a mistake, not ignored.
sabandit_cli_test("tune help" 0 "--protocol.*single or paper.*--ts-sa-space.*h-alpha, h-tau or wide" tune --help)
sabandit_cli_test("tune bad protocol" 2 "^reproduce_paper: --protocol must be single or paper \\(got 'optuna'\\)\n" tune --protocol optuna)
sabandit_cli_test("tune bad space" 2 "^reproduce_paper: --ts-sa-space must be h-alpha, h-tau or wide \\(got 'all'\\)\n" tune --ts-sa-space all)
sabandit_cli_test("tune paper protocol with --arms" 2 "--arms and --gap choose the one setting of --protocol single" tune --protocol paper --arms 10)
sabandit_cli_test("tune negative eval trials" 2 "--eval-trials must be ≥ 0 \\(got -1\\)" tune --eval-trials -1)

# docs/ts-sa-study.md (an archive: the retired study job's outputs) quotes its tables: each must
# be the archived output, byte for byte, as scripts/check-readme checks the README's.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME "cli: docs/ts-sa-study.md quotes docs/ts-sa-study/study.md exactly"
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/../../scripts/lib/readme.py" copies
                   "${CMAKE_CURRENT_LIST_DIR}/../../docs/ts-sa-study.md" "${CMAKE_CURRENT_LIST_DIR}/../..")
  set_tests_properties("cli: docs/ts-sa-study.md quotes docs/ts-sa-study/study.md exactly" PROPERTIES LABELS cli)
  # The pages the README links quote committed outputs the same way.
  foreach(page IN ITEMS experiments policies performance contextual-experiments)
    add_test(NAME "cli: docs/${page}.md quotes committed outputs exactly"
             COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/../../scripts/lib/readme.py" copies
                     "${CMAKE_CURRENT_LIST_DIR}/../../docs/${page}.md" "${CMAKE_CURRENT_LIST_DIR}/../..")
    set_tests_properties("cli: docs/${page}.md quotes committed outputs exactly" PROPERTIES LABELS cli)
  endforeach()
endif()
