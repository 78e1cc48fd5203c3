/*
 * An STM32F4 GPIO port for QEMU, written for gamec's tests: QEMU 7.2 maps the STM32F405's
 * ports as unimplemented (reads are 0, writes dropped), so firmware that lights LEDs and reads
 * buttons there could not be run. The model keeps the registers of RM0090 section 8.4 (mode,
 * output type, speed, pull, input and output data, bit set/reset, lock, alternate functions),
 * takes each pin's outside level on an input line (qtest's `set_irq_in`: a button pulling a
 * pin low, or released: 1), and gives each pin's level on an output line (to SYSCFG, which
 * routes it to the EXTI: a press wakes the chip). A pin's level is its output where it is an
 * output, else what drives it from outside, else its pull. It traces the ports' mode and
 * output data as they change, and the inputs, which gamec's player reads as the pins' timeline.
 *
 * The AT32F437's ports have the same registers at the same addresses, so its firmware's
 * pins run here too.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later (as QEMU, into which it is built)
 */

#include "qemu/osdep.h"
#include "hw/sysbus.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/gpio/stm32f4_gpio.h"
#include "migration/vmstate.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "trace.h"

#define MODER   0x00
#define OTYPER  0x04
#define OSPEEDR 0x08
#define PUPDR   0x0C
#define IDR     0x10
#define ODR     0x14
#define BSRR    0x18
#define LCKR    0x1C
#define AFRL    0x20
#define AFRH    0x24

/* The level of every pin, from its mode, output, outside drive and pull. */
static uint16_t stm32f4_gpio_levels(STM32F4GpioState *s)
{
    uint16_t levels = 0;
    for (int i = 0; i < 16; i++) {
        uint32_t mode = (s->moder >> (2 * i)) & 3;
        uint32_t pull = (s->pupdr >> (2 * i)) & 3;
        bool level;
        if (mode == 1) {
            level = (s->odr >> i) & 1;
        } else if ((s->driven >> i) & 1) {
            level = (s->outside >> i) & 1;
        } else {
            level = pull == 1;
        }
        levels |= (uint16_t)level << i;
    }
    return levels;
}

/* Publishes changed levels to the output lines; traces a change of the outputs. */
static void stm32f4_gpio_update(STM32F4GpioState *s, uint32_t old_moder, uint32_t old_odr)
{
    uint16_t levels = stm32f4_gpio_levels(s);
    uint16_t changed = levels ^ s->levels;
    s->levels = levels;
    if (s->moder != old_moder || s->odr != old_odr) {
        trace_stm32f4_gpio_pins('A' + s->port, s->moder, s->odr);
    }
    for (int i = 0; i < 16; i++) {
        if ((changed >> i) & 1) {
            qemu_set_irq(s->pin[i], (levels >> i) & 1);
        }
    }
}

static void stm32f4_gpio_set_input(void *opaque, int pin, int level)
{
    STM32F4GpioState *s = opaque;
    trace_stm32f4_gpio_input('A' + s->port, pin, level);
    s->driven |= 1 << pin;
    s->outside = deposit32(s->outside, pin, 1, level != 0);
    stm32f4_gpio_update(s, s->moder, s->odr);
}

static uint64_t stm32f4_gpio_read(void *opaque, hwaddr addr, unsigned size)
{
    STM32F4GpioState *s = opaque;
    switch (addr) {
    case MODER:
        return s->moder;
    case OTYPER:
        return s->otyper;
    case OSPEEDR:
        return s->ospeedr;
    case PUPDR:
        return s->pupdr;
    case IDR:
        return s->levels;
    case ODR:
        return s->odr;
    case BSRR:
        return 0;
    case LCKR:
        return s->lckr;
    case AFRL:
        return s->afr[0];
    case AFRH:
        return s->afr[1];
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "stm32f4-gpio: read of 0x%" HWADDR_PRIx "\n", addr);
        return 0;
    }
}

static void stm32f4_gpio_write(void *opaque, hwaddr addr, uint64_t value, unsigned size)
{
    STM32F4GpioState *s = opaque;
    uint32_t old_moder = s->moder, old_odr = s->odr;
    switch (addr) {
    case MODER:
        s->moder = value;
        break;
    case OTYPER:
        s->otyper = value & 0xFFFF;
        break;
    case OSPEEDR:
        s->ospeedr = value;
        break;
    case PUPDR:
        s->pupdr = value;
        break;
    case ODR:
        s->odr = value & 0xFFFF;
        break;
    case BSRR:
        /* Set wins where a bit is both set and reset. */
        s->odr = (s->odr & ~(value >> 16)) | (value & 0xFFFF);
        break;
    case LCKR:
        s->lckr = value;
        break;
    case AFRL:
        s->afr[0] = value;
        break;
    case AFRH:
        s->afr[1] = value;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "stm32f4-gpio: write of 0x%" HWADDR_PRIx "\n", addr);
        return;
    }
    stm32f4_gpio_update(s, old_moder, old_odr);
}

static const MemoryRegionOps stm32f4_gpio_ops = {
    .read = stm32f4_gpio_read,
    .write = stm32f4_gpio_write,
    .endianness = DEVICE_NATIVE_ENDIAN,
    .impl = { .min_access_size = 4, .max_access_size = 4 },
    .valid = { .min_access_size = 1, .max_access_size = 4 },
};

/* The reset values of RM0090: ports A and B start with the debug port's pins set up. */
static void stm32f4_gpio_reset(DeviceState *dev)
{
    STM32F4GpioState *s = STM32F4_GPIO(dev);
    s->moder = s->port == 0 ? 0xA8000000 : s->port == 1 ? 0x00000280 : 0;
    s->ospeedr = s->port == 1 ? 0x000000C0 : 0;
    s->pupdr = s->port == 0 ? 0x64000000 : s->port == 1 ? 0x00000100 : 0;
    s->otyper = s->odr = s->lckr = s->afr[0] = s->afr[1] = 0;
    s->levels = stm32f4_gpio_levels(s);
}

static void stm32f4_gpio_init(Object *obj)
{
    STM32F4GpioState *s = STM32F4_GPIO(obj);
    memory_region_init_io(&s->mmio, obj, &stm32f4_gpio_ops, s, TYPE_STM32F4_GPIO, 0x400);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->mmio);
    qdev_init_gpio_in(DEVICE(obj), stm32f4_gpio_set_input, 16);
    qdev_init_gpio_out(DEVICE(obj), s->pin, 16);
}

static const VMStateDescription vmstate_stm32f4_gpio = {
    .name = TYPE_STM32F4_GPIO,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(moder, STM32F4GpioState),
        VMSTATE_UINT32(otyper, STM32F4GpioState),
        VMSTATE_UINT32(ospeedr, STM32F4GpioState),
        VMSTATE_UINT32(pupdr, STM32F4GpioState),
        VMSTATE_UINT32(odr, STM32F4GpioState),
        VMSTATE_UINT32(lckr, STM32F4GpioState),
        VMSTATE_UINT32_ARRAY(afr, STM32F4GpioState, 2),
        VMSTATE_UINT16(outside, STM32F4GpioState),
        VMSTATE_UINT16(driven, STM32F4GpioState),
        VMSTATE_UINT16(levels, STM32F4GpioState),
        VMSTATE_END_OF_LIST()
    }
};

static Property stm32f4_gpio_properties[] = {
    DEFINE_PROP_UINT8("port", STM32F4GpioState, port, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static void stm32f4_gpio_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    dc->reset = stm32f4_gpio_reset;
    dc->vmsd = &vmstate_stm32f4_gpio;
    device_class_set_props(dc, stm32f4_gpio_properties);
}

static const TypeInfo stm32f4_gpio_info = {
    .name = TYPE_STM32F4_GPIO,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(STM32F4GpioState),
    .instance_init = stm32f4_gpio_init,
    .class_init = stm32f4_gpio_class_init,
};

static void stm32f4_gpio_register_types(void)
{
    type_register_static(&stm32f4_gpio_info);
}

type_init(stm32f4_gpio_register_types)
