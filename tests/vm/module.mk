# tests/vm/: make check-vm runs the test driver on the distribution kernel under QEMU, once per
# cgroup layout (unified and legacy split over three guests each), two at a time (tests/vm/check;
# README: "Tests on real kernels").
# make check-vm VM_LAYOUTS=legacy runs one layout (unset: tests/vm/check's default list); SAN=1
# takes the sanitized build.
VM_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_LAYOUTS ?=

check-vm: tests-build
	CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) $(VM_DIR)/check $(VM_LAYOUTS)

.PHONY: check-vm
