/* The seed article's Set solver (../shared/seeds/004_*.txt, `set_game_seek_set`), the
 * reference the Set bench counts the generated search against: every ordered triple of the
 * table's cards tested attribute by attribute, each set sorted with qsort and kept when no
 * earlier one equals it. Transcribed with its types for one table; its logging is left out,
 * which only flatters it. Built by the bench with arm-none-eabi-gcc for the Cortex-M4.
 *
 * The bench calls `seed_load` outside the counted window and `seed_seek_set` inside it. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define SET_GAME_TOTAL_ON_TABLE 21
/* No table of 21 cards holds more sets than this. */
#define SET_GAME_MAX_SETS 81

typedef union {
    uint8_t byte;
    struct {
        uint8_t quantity : 2;
        uint8_t filling : 2;
        uint8_t color : 2;
        uint8_t shape : 2;
    };
} SetCardInfo_t;

typedef struct {
    SetCardInfo_t Info;
    uint8_t index;
} SetCard_t;

typedef union {
    uint64_t qword;
    struct {
        SetCard_t CardA;
        SetCard_t CardB;
        SetCard_t CardC;
    };
} SetInstance_t;

typedef struct {
    uint8_t card_cnt;
    uint32_t set_cnt;
    SetCard_t Cards[SET_GAME_TOTAL_ON_TABLE];
    SetInstance_t SetArray[SET_GAME_MAX_SETS];
} SetGameHandle_t;

static SetGameHandle_t SetGameNode;

SetGameHandle_t *SetGameGetNode(uint8_t num)
{
    return num == 1 ? &SetGameNode : NULL;
}

#define SET_GAME_IS_XXXX_SET(CardA, CardB, CardC, ATTRIBUTE)                                    \
    bool set_game_is_##ATTRIBUTE##_set(SetCard_t *CardA, SetCard_t *CardB, SetCard_t *CardC) \
    {                                                                                          \
        bool res = false;                                                                      \
        if (CardA->Info.ATTRIBUTE == CardB->Info.ATTRIBUTE) {                                  \
            if (CardB->Info.ATTRIBUTE == CardC->Info.ATTRIBUTE) {                              \
                if (CardA->Info.ATTRIBUTE == CardC->Info.ATTRIBUTE) {                          \
                    res = true;                                                                \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        if (CardA->Info.ATTRIBUTE != CardB->Info.ATTRIBUTE) {                                  \
            if (CardB->Info.ATTRIBUTE != CardC->Info.ATTRIBUTE) {                              \
                if (CardA->Info.ATTRIBUTE != CardC->Info.ATTRIBUTE) {                          \
                    res = true;                                                                \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        return res;                                                                            \
    }

SET_GAME_IS_XXXX_SET(CardA, CardB, CardC, color)
SET_GAME_IS_XXXX_SET(CardA, CardB, CardC, filling)
SET_GAME_IS_XXXX_SET(CardA, CardB, CardC, quantity)
SET_GAME_IS_XXXX_SET(CardA, CardB, CardC, shape)

bool set_game_is_set(SetCard_t *CardA, SetCard_t *CardB, SetCard_t *CardC)
{
    bool res = false;
    res = set_game_is_color_set(CardA, CardB, CardC);
    if (res) {
        res = false;
        res = set_game_is_filling_set(CardA, CardB, CardC);
        if (res) {
            res = false;
            res = set_game_is_quantity_set(CardA, CardB, CardC);
            if (res) {
                res = false;
                res = set_game_is_shape_set(CardA, CardB, CardC);
            }
        }
    }
    return res;
}

int uint32_compare(const void *x1, const void *x2)
{
    return (*(uint32_t *)x1 - *(uint32_t *)x2);
}

bool set_game_is_set_uniq(SetGameHandle_t *Node, SetInstance_t *Instance)
{
    bool res = true;
    uint32_t i = 0;
    for (i = 0; i < Node->set_cnt; i++) {
        if (Instance->qword == Node->SetArray[i].qword) {
            res = false;
            break;
        }
    }
    return res;
}

bool set_game_seek_set(uint8_t num)
{
    bool res = false;
    SetGameHandle_t *Node = SetGameGetNode(num);
    uint32_t cur_arr[3] = {0};
    uint32_t i = 0;
    uint32_t j = 0;
    uint32_t k = 0;
    for (i = 0; i < Node->card_cnt; i++) {
        for (j = 0; j < Node->card_cnt; j++) {
            for (k = 0; k < Node->card_cnt; k++) {
                if (i != j) {
                    if (i != k) {
                        if (j != k) {
                            res = set_game_is_set(&Node->Cards[i], &Node->Cards[j], &Node->Cards[k]);
                            if (res) {
                                cur_arr[0] = i;
                                cur_arr[1] = j;
                                cur_arr[2] = k;
                                size_t item_size = sizeof(uint32_t);
                                qsort((void *)cur_arr, (size_t)3, item_size, uint32_compare);

                                SetInstance_t Instance;
                                Instance.qword = 0;
                                Instance.CardA = Node->Cards[cur_arr[0]];
                                Instance.CardB = Node->Cards[cur_arr[1]];
                                Instance.CardC = Node->Cards[cur_arr[2]];
                                res = set_game_is_set_uniq(Node, &Instance);
                                if (res) {
                                    Node->SetArray[Node->set_cnt] = Instance;
                                    Node->set_cnt++;
                                    res = true;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    return res;
}

/* The bench's entry points, renamed per build (-Dseed_load=..., -Dseed_seek=...) so that
 * several optimisation levels link into one firmware; everything else is made local. */
__attribute__((visibility("default"))) void seed_load(const uint8_t *codes, uint8_t n)
{
    SetGameHandle_t *Node = SetGameGetNode(1);
    Node->card_cnt = 0;
    Node->set_cnt = 0;
    for (uint8_t i = 0; i < n && i < SET_GAME_TOTAL_ON_TABLE; i++) {
        Node->Cards[i].Info.byte = codes[i];
        Node->Cards[i].index = i;
        Node->card_cnt++;
    }
}

__attribute__((visibility("default"))) uint32_t seed_seek(void)
{
    set_game_seek_set(1);
    return SetGameGetNode(1)->set_cnt;
}
