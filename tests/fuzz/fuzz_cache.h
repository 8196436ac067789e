/* clconvolve: what the cache fuzz target and its seed generator share
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __FUZZ_CACHE_H__
#define __FUZZ_CACHE_H__

/* the fixed key every fuzzed file is loaded under (64 hex digits, like a real SHA-256 key) */
#define FUZZ_CACHE_KEY "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"
/* another key, for the copied-under-another-name check */
#define FUZZ_CACHE_OTHER_KEY "f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f"

#endif /* __FUZZ_CACHE_H__ */
