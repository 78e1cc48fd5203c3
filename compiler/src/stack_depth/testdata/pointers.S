; A fixture for the stack bound's relocation path: a stored pointer to `b`, an ldi pair
; loading `c`'s address, and a number in .data that only happens to equal `d`'s word address.
; Built by `make` in this directory (avr-gcc), linked with and without --emit-relocs.
    .section .vectors,"ax",@progbits
    .global __vectors
__vectors:
    rjmp reset
    rjmp __vector_1

    .text
reset:
    ldi r28, 0x5f
    ldi r29, 0x04
    out 0x3e, r29
    out 0x3d, r28
    rcall a
    rcall e
1:  rjmp 1b

    .global __vector_1
    .type __vector_1, @function
__vector_1:
    reti

    ; Calls whatever the table holds.
    .global a
    .type a, @function
a:
    lds r30, table
    lds r31, table+1
    icall
    ret

    ; Stores c's address, loaded with an ldi pair, for a to call.
    .global e
    .type e, @function
e:
    ldi r30, pm_lo8(c)
    ldi r31, pm_hi8(c)
    sts table, r30
    sts table+1, r31
    ret

    .global b
    .type b, @function
b:
    push r2
    pop r2
    ret

    .global c
    .type c, @function
c:
    push r2
    push r3
    pop r3
    pop r2
    ret

    ; Deepest of all, but nothing takes its address.
    .global d
    .type d, @function
d:
    push r2
    push r3
    push r4
    push r5
    pop r5
    pop r4
    pop r3
    pop r2
    ret

    .data
table:
    .word pm(b)
small:
    .word 0x1f ; d is at byte 0x3e
