# Warnings, GNU extensions we rely on (memmem, memrchr, strcasecmp), and sanitizer builds.
add_compile_options(-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
  -Wno-unused-parameter -Werror=implicit-function-declaration -Werror=format-security)
add_compile_definitions(_GNU_SOURCE)
if(FL_SANITIZE)
  add_compile_options(-fsanitize=${FL_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${FL_SANITIZE})
endif()
