"""Reads LD_DEBUG=bindings output on stdin and prints, once each and sorted,
"LIB SYMBOL -> PROVIDER" for the malloc and operator new (_Znwm) bindings
of libMLIR and libLLVM (allocator.test)."""
import re
import sys

BINDING = re.compile(
    r"binding file \S*/(libMLIR|libLLVM)[^/\s]* \[\d+\] to \S*/(lib[a-z]+)[^/\s]*"
    r" \[\d+\]: normal symbol `(malloc|_Znwm)'")

found = set()
for line in sys.stdin:
    match = BINDING.search(line)
    if match:
        lib, provider, symbol = match.groups()
        found.add(f"{lib} {symbol} -> {provider}")
for entry in sorted(found):
    print(entry)
