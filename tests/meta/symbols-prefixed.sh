#!/bin/sh
# Every symbol the library exports from its public API starts with fl_; internal symbols of the
# static archive are allowed only without that prefix clash (no other public names leak).
set -u
lib=$1
bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF==3 && $2 ~ /[TDR]/ {print $3}' | grep -v '^fl_' | grep -Ev '^(kb_|buf_|grow_array|xstr|error_set|walk_dir|prefix_|days_from_civil|framer_|facts_|extract|correlator_|score_|condition_|config_|report_|reader_|input_read|scanner_|stacks_|stack_|mask_|pcre_lazy_|rankmap_|db_image_)')
if [ -n "$bad" ]; then echo "unexpected exported symbols:"; echo "$bad"; exit 1; fi
nm -g --defined-only "$lib" | grep -q ' T fl_kb_new' || { echo "fl_kb_new missing"; exit 1; }
