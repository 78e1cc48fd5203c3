@ The Thumb-2 stack bound's test of reentry barred by the caller's word (thumb/mod.rs): middle
@ calls hook through a pointer, and hook calls outer_a, which is barred from starting again
@ only where outer_a is already running. Reached from outer_c, it is not, and counts.
        .syntax unified
        .thumb

        .section .vector_table, "a", %progbits
        .word 0x20001000, reset, 0, 0

        .section .rodata, "a", %progbits
        .p2align 2
hooks:
        .word hook

        .text
        .macro function name
        .thumb_func
        .type \name, %function
        .global \name
\name:
        .endm

@ outer_a (224), then outer_c (232): 232.
function reset
        bl outer_a
        bl outer_c
1:      b 1b

@ 8 + 200, then middle (16: hook may not start outer_a again under it): 224.
function outer_a
        push {r7, lr}
        sub sp, #200
        bl middle
        add sp, #200
        pop {r7, pc}

@ 8, then middle (224: hook's outer_a, 208 with middle barred under it): 232.
function outer_c
        push {r7, lr}
        bl middle
        pop {r7, pc}

@ 8, then hook through a pointer.
function middle
        push {r7, lr}
        ldr r0, =hooks
        ldr r0, [r0]
        blx r0
        pop {r7, pc}
        .ltorg

@ 8, then outer_a when r0 is 0, which it never is under outer_a (the word the bound takes).
function hook
        push {r7, lr}
        cbz r0, 1f
        pop {r7, pc}
1:      bl outer_a
        pop {r7, pc}
