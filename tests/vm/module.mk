# tests/vm/: make check-vm runs the test driver on the distribution kernel under QEMU,
# once per cgroup layout, one after the other (each VM takes both cores).
# make check-vm VM_LAYOUTS=legacy runs one layout; SAN=1 takes the sanitized build.
VM_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
VM_LAYOUTS ?= unified legacy hybrid

check-vm: tests-build
	@failed=; \
	for layout in $(VM_LAYOUTS); do \
		echo "=== check-vm: $$layout"; \
		CGKIT_BIN=$(abspath $(O)) CGKIT_OBJ=$(abspath $(OBJ)) \
			$(VM_DIR)/run $$layout || failed="$$failed $$layout"; \
	done; \
	if [ -n "$$failed" ]; then echo "check-vm: failed in:$$failed"; exit 1; fi; \
	echo "check-vm: passed in $(VM_LAYOUTS)"

.PHONY: check-vm
