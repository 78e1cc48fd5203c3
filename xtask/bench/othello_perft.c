/* A plain bitboard Othello perft in C: the reference `cargo xtask bench` holds gamec's host
 * perft speed to (issue 20: at least a plain C bitboard's). Two 64-bit boards, the mover's and
 * the opponent's; moves found by shifting the mover's discs along each of the eight directions
 * through runs of the opponent's; a move's flips walked direction by direction; no move
 * ordering, no hashing, no bulk counting of the last ply: every leaf is visited, as gamec's
 * perft visits them. A pass is a ply; a game over counts as a leaf at every depth past it,
 * as `gamec perft` counts finished games. Prints each depth's count, the sum, and the time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef uint64_t u64;

/* Bit i is row i / 8, column i % 8. Masks keep a shift from wrapping across a row's end. */
static const u64 NOT_A = 0xfefefefefefefefeULL; /* every column but the first */
static const u64 NOT_H = 0x7f7f7f7f7f7f7f7fULL; /* every column but the last */

static inline u64 step(u64 b, int d) {
    switch (d) {
    case 0: return b << 8;              /* north */
    case 1: return b >> 8;              /* south */
    case 2: return (b << 1) & NOT_A;    /* east */
    case 3: return (b >> 1) & NOT_H;    /* west */
    case 4: return (b << 9) & NOT_A;    /* north-east */
    case 5: return (b << 7) & NOT_H;    /* north-west */
    case 6: return (b >> 7) & NOT_A;    /* south-east */
    default: return (b >> 9) & NOT_H;   /* south-west */
    }
}

static u64 moves(u64 me, u64 them) {
    u64 empty = ~(me | them), legal = 0;
    for (int d = 0; d < 8; d++) {
        u64 run = step(me, d) & them;
        for (int k = 0; k < 5; k++) run |= step(run, d) & them;
        legal |= step(run, d) & empty;
    }
    return legal;
}

static u64 flips(u64 me, u64 them, u64 at) {
    u64 all = 0;
    for (int d = 0; d < 8; d++) {
        u64 run = 0, x = step(at, d);
        while (x & them) {
            run |= x;
            x = step(x, d);
        }
        if (x & me) all |= run;
    }
    return all;
}

static u64 counts[32];

/* Counts the positions `left` plies on from (me, them) into counts[ply + ...]. */
static void perft(u64 me, u64 them, int ply, int left, int passed) {
    if (left == 0) return;
    u64 legal = moves(me, them);
    if (!legal) {
        if (passed) {
            /* Neither side can move: a finished game, a leaf at every depth still asked. */
            for (int k = ply + 1; k <= ply + left; k++) counts[k]++;
            return;
        }
        counts[ply + 1]++;
        perft(them, me, ply + 1, left - 1, 1);
        return;
    }
    while (legal) {
        u64 at = legal & (0 - legal);
        legal ^= at;
        u64 f = flips(me, them, at);
        counts[ply + 1]++;
        perft(them ^ f, me | f | at, ply + 1, left - 1, 0);
    }
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 10;
    if (depth < 1 || depth > 30) return 2;
    /* Black (to move) on D5 and E4, white on D4 and E5. */
    u64 black = (1ULL << (4 * 8 + 3)) | (1ULL << (3 * 8 + 4));
    u64 white = (1ULL << (3 * 8 + 3)) | (1ULL << (4 * 8 + 4));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    perft(black, white, 0, depth, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    unsigned long long sum = 0;
    for (int k = 1; k <= depth; k++) {
        printf("depth %2d: %llu\n", k, (unsigned long long)counts[k]);
        sum += counts[k];
    }
    printf("%llu leaves in %.3f s\n", sum, s);
    return 0;
}
