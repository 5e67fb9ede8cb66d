# Tests of the integrations: the shared library (exported symbols, install, pkg-config) and the
# Python module (python/tests). Included by tests/CMakeLists.txt.
# ---------------------------------------------------------------- shared library and its install
add_test(NAME meta_shared_symbols
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/meta/shared-symbols.sh $<TARGET_FILE:faultline_shared>
          ${CMAKE_SOURCE_DIR}/include/faultline.h $<TARGET_SONAME_FILE_NAME:faultline_shared>)
# A program built without sanitizers cannot load a library built with them: the install and the
# Python tests run in the plain build only.
if(NOT FL_SANITIZE)
add_test(NAME meta_install_library
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/meta/install-library.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_SOURCE_DIR} $<TARGET_SONAME_FILE_NAME:faultline_shared>)
endif()

# ---------------------------------------------------------------- Python module (python/)
# pytest over python/tests with this build's library and program. The torchrun job runs on its
# own (it takes the longest); it is skipped, and says so, only when python3-torch is missing.
if(NOT FL_SANITIZE)
# Debian's python3 (python3-pytest, python3-torch) before any other python3 on PATH.
find_program(FL_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT FL_PYTHON3)
  find_program(FL_PYTHON3 python3 REQUIRED)
endif()
set(FL_PY_ENV "FAULTLINE_LIB=$<TARGET_FILE:faultline_shared>;FAULTLINE_BIN=$<TARGET_FILE:faultline>;FAULTLINE_BUILD_DIR=${CMAKE_BINARY_DIR}")
add_test(NAME python_module
  COMMAND ${FL_PYTHON3} -m pytest -p no:cacheprovider -q -rs
          ${CMAKE_SOURCE_DIR}/python/tests --ignore=${CMAKE_SOURCE_DIR}/python/tests/test_torchrun.py
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME python_torchrun
  COMMAND sh -c "\"$0\" -c 'import torch' 2>/dev/null || { echo 'SKIPPED: python3-torch is not installed, no torchrun job run'; exit 77; }; exec \"$0\" -m pytest -p no:cacheprovider -q -rs \"$1\"" 
          ${FL_PYTHON3} ${CMAKE_SOURCE_DIR}/python/tests/test_torchrun.py
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(python_module python_torchrun PROPERTIES ENVIRONMENT "${FL_PY_ENV}" TIMEOUT 900)
set_tests_properties(python_torchrun PROPERTIES SKIP_RETURN_CODE 77)
endif()
