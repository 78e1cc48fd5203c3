// SPDX-License-Identifier: MIT
// Copyright (c) Uri Shaked and contributors
export {};
