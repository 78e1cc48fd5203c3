@ The Thumb-2 stack bound's test of recursion the caller bounds (thumb/mod.rs): rec and mid
@ call each other directly, with no pointer between; only a limit on rec's activations bounds
@ them. With rec at most 3 deep: reset 8, then three rounds of rec 8 and mid 16: 80.
        .syntax unified
        .thumb

        .section .vector_table, "a", %progbits
        .word 0x20001000, reset, 0, 0

        .text
        .macro function name
        .thumb_func
        .type \name, %function
        .global \name
\name:
        .endm

function reset
        push {r7, lr}
        bl rec
1:      b 1b

@ 8, then mid.
function rec
        push {r4, lr}
        bl mid
        pop {r4, pc}

@ 16, then rec again while r0 is not 0 (the depth the caller's word counts).
function mid
        push {r7, lr}
        sub sp, #8
        cbz r0, 1f
        bl rec
1:      add sp, #8
        pop {r7, pc}
