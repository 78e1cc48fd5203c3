/* A QEMU TCG plugin for the benchmarks: counts the guest instructions executed between two
 * marker addresses, and the lowest address written inside the stack's region.
 *
 *   -plugin insn_window.so,arg=open=0x..,arg=close=0x..[,arg=stack_lo=0x..,arg=stack_hi=0x..]
 *   -d plugin -D LOG
 *
 * Each time the instruction at `open` runs a window opens; it closes, and its count is
 * written to the log as `window N: I instructions`, when the instruction at `close` runs.
 * Both markers' first instructions are counted, so a window costs a few instructions of its
 * own: the bench subtracts an empty window's count. Each new lowest store in
 * [stack_lo, stack_hi) is written as `stack: low 0x..`.
 *
 * QEMU 7.2 (Debian 12) ships no plugin header, so the few calls of plugin API version 1 used
 * here are declared below; version 1 is what 7.2 accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum { CB_NO_REGS = 0 };
enum { MEM_W = 2 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t,
                                           void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *, void (*)(unsigned int, void *),
                                            int, void *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *,
                                      void (*)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *),
                                      int, int, void *);
void qemu_plugin_outs(const char *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t open_pc = UINT64_MAX, close_pc = UINT64_MAX;
static uint64_t stack_lo, stack_hi, stack_low = UINT64_MAX;
static int counting;
static uint64_t count, windows;

static void on_insn(unsigned int vcpu, void *udata)
{
    uint64_t pc = (uint64_t)(uintptr_t)udata;
    (void)vcpu;
    if (pc == open_pc) {
        counting = 1;
        count = 0;
    }
    if (!counting)
        return;
    count++;
    if (pc == close_pc) {
        char line[64];
        counting = 0;
        windows++;
        snprintf(line, sizeof line, "window %llu: %llu instructions\n", (unsigned long long)windows,
                 (unsigned long long)count);
        qemu_plugin_outs(line);
    }
}

static void on_store(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t addr, void *udata)
{
    (void)vcpu;
    (void)info;
    (void)udata;
    if (addr >= stack_lo && addr < stack_hi && addr < stack_low) {
        char line[48];
        stack_low = addr;
        snprintf(line, sizeof line, "stack: low 0x%llx\n", (unsigned long long)addr);
        qemu_plugin_outs(line);
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    for (size_t i = 0; i < qemu_plugin_tb_n_insns(tb); i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, CB_NO_REGS, (void *)(uintptr_t)pc);
        if (stack_hi > stack_lo)
            qemu_plugin_register_vcpu_mem_cb(insn, on_store, CB_NO_REGS, MEM_W, NULL);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc,
                                                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq)
            return 1;
        uint64_t v = strtoull(eq + 1, NULL, 0);
        size_t n = (size_t)(eq - argv[i]);
        if (!strncmp(argv[i], "open", n))
            open_pc = v;
        else if (!strncmp(argv[i], "close", n))
            close_pc = v;
        else if (!strncmp(argv[i], "stack_lo", n))
            stack_lo = v;
        else if (!strncmp(argv[i], "stack_hi", n))
            stack_hi = v;
        else
            return 1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
