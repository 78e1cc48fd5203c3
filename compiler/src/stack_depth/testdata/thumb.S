@ A small Cortex-M4 program for the Thumb-2 stack bound's tests (thumb/mod.rs): a vector table,
@ frames of every kind the bound follows, an `it` block, a `tbb` table, a tail call, two
@ callbacks called through pointers that can call each other, and a pointer made by movw/movt.
@ The expected depths are worked out beside each function.
        .syntax unified
        .thumb

        .section .vector_table, "a", %progbits
        .word 0x20001000            @ the initial SP
        .word reset                 @ 1
        .word nmi                   @ 2
        .word hardfault             @ 3
        .word 0, 0, 0, 0, 0, 0, 0   @ 4-10
        .word 0, 0, 0, 0            @ 11-14
        .word systick               @ 15
        .word irq0                  @ 16

        .section .rodata, "a", %progbits
        .p2align 2
callbacks:
        .word cb_one
        .word cb_two

        .text
        .macro function name
        .thumb_func
        .type \name, %function
        .global \name
\name:
        .endm

@ 8 + 16 = 24, then the deepest of leaf (284), a callback (48), systick through a pointer
@ made by movw/movt (24) and table (108): 308.
function reset
        push {r7, lr}
        sub sp, #16
        bl leaf
        ldr r0, =callbacks
        ldr r1, [r0]
        blx r1
        movw r1, #:lower16:systick
        movt r1, #:upper16:systick
        blx r1
        movs r0, #2
        bl table
1:      b 1b
        .ltorg

@ 20 + 8 + 256 = 284.
function leaf
        push {r4, r5, r6, r7, lr}
        vpush {d8}
        sub.w sp, sp, #256
        add.w sp, sp, #256
        vpop {d8}
        pop {r4, r5, r6, r7, pc}

@ 16, then cb_two through a pointer: 16 + 8 (cb_one may not start again under it) = 24.
function cb_one
        push {r4, lr}
        sub sp, #8
        cmp r0, #0
        itt eq
        addeq sp, #8
        popeq {r4, pc}
        ldr r1, =callbacks
        ldr r1, [r1, #4]
        blx r1
        add sp, #8
        pop {r4, pc}
        .ltorg

@ 8, then cb_one through a pointer: 8 + 16 = 24.
function cb_two
        strd r8, r9, [sp, #-8]!
        ldr r1, =callbacks
        ldr r1, [r1]
        blx r1
        ldrd r8, r9, [sp], #8
        bx lr
        .ltorg

@ 8, then case 0 (40 more: 48) or case 1, a tail call at 8 to tail (100): 108.
function table
        push {r7, lr}
        cmp r0, #2
        bhi 9f
        tbb [pc, r0]
2:      .byte (3f - 2b) / 2, (4f - 2b) / 2, (5f - 2b) / 2
        .p2align 1
3:      sub sp, #40
        add sp, #40
        pop {r7, pc}
4:      pop.w {r7, lr}
        b.w tail
5:      pop {r7, pc}
9:      pop {r7, pc}

@ 100.
function tail
        sub sp, #100
        add sp, #100
        bx lr

@ 20 + 4 = 24.
function systick
        push {r4, r5, r6, r7, lr}
        str r8, [sp, #-4]!
        ldr r8, [sp], #4
        pop {r4, r5, r6, r7, pc}

@ 8 + leaf (284) = 292.
function irq0
        push {r7, lr}
        bl leaf
        pop {r7, pc}

@ 0.
function nmi
        b nmi

@ 8.
function hardfault
        push {r7, lr}
1:      b 1b
