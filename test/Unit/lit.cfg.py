# -*- Python -*-
# Runs the GoogleTest binaries under build/unittests as lit tests.

import os

import lit.formats

config.name = "AMP-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.amp_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# In an ASan build (scripts/test.sh --sanitize): no leak reports, and an
# impossible allocation returns NULL as it does without ASan, so the tests of
# out-of-memory paths (e.g. amp_alloc of 2^62 bytes) run instead of aborting.
# lit runs tests side by side, so the cpu backend's OpenMP threads share
# the cores with other tests: they sleep rather than spin while waiting.
config.environment["OMP_WAIT_POLICY"] = "passive"
config.environment["ASAN_OPTIONS"] = (
    "detect_leaks=0:allow_user_poisoning=0:allocator_may_return_null=1")
