/*
 * An STM32F4 GPIO port for QEMU, written for gamec's tests (see stm32f4_gpio.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_GPIO_STM32F4_GPIO_H
#define HW_GPIO_STM32F4_GPIO_H

#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_STM32F4_GPIO "stm32f4-gpio"
OBJECT_DECLARE_SIMPLE_TYPE(STM32F4GpioState, STM32F4_GPIO)

struct STM32F4GpioState {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    /* Which port: 0 is A. */
    uint8_t port;
    uint32_t moder, otyper, ospeedr, pupdr, odr, lckr;
    uint32_t afr[2];
    /* The levels driven from outside, on the pins of `driven`. */
    uint16_t outside, driven;
    /* Every pin's level, as last given to `pin`. */
    uint16_t levels;
    qemu_irq pin[16];
};

#endif
