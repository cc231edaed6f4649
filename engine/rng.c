/*
 * rng.c - the engine's random numbers: a ChaCha20 keystream (RFC 8439) from
 * libcrypto, buffered 256 bytes (four blocks) at a time, with unbiased
 * bounded draws and a Fisher-Yates shuffle on top.
 *
 * The generator is plain data (engine_rng): copying the struct forks the
 * stream, and save/load round-trips it exactly. The keystream for (key,
 * stream id) is the RFC 8439 ChaCha20 block function with the 12-byte nonce
 * 00 00 00 00 || stream as 8 little-endian bytes, and the 32-bit block
 * counter starting at 0. It does not seed itself: keys come from the caller
 * (the game's seed), so the engine never touches the OS.
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define CHUNK_BLOCKS 4 /* blocks generated per refill */
#define CHUNK_BYTES (64 * CHUNK_BLOCKS)

_Static_assert(CHUNK_BYTES == sizeof(((engine_rng *)0)->buf),
               "the rng buffer holds exactly one chunk");

void engine_chacha20_blocks(const uint8_t key[32], const uint8_t nonce[12],
                            uint32_t counter, uint8_t *out, size_t nblocks)
{
    /* libcrypto's ChaCha20 takes a 16-byte IV: the block counter (4 bytes,
     * little-endian) followed by the RFC 8439 nonce. Encrypting zeros yields
     * the raw keystream. */
    uint8_t iv[16];
    iv[0] = (uint8_t)counter;
    iv[1] = (uint8_t)(counter >> 8);
    iv[2] = (uint8_t)(counter >> 16);
    iv[3] = (uint8_t)(counter >> 24);
    memcpy(iv + 4, nonce, 12);

    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx || EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) != 1)
        abort(); /* only on out-of-memory; the contract says cannot fail */
    size_t left = 64 * nblocks;
    memset(out, 0, left);
    while (left > 0) {
        int step = left > (1u << 30) ? (1 << 30) : (int)left, got = 0;
        if (EVP_EncryptUpdate(ctx, out, &got, out, step) != 1 || got != step)
            abort();
        out += step;
        left -= (size_t)step;
    }
    EVP_CIPHER_CTX_free(ctx);
}

static void stream_nonce(uint64_t stream, uint8_t nonce[12])
{
    memset(nonce, 0, 4);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] = (uint8_t)(stream >> (8 * i));
}

/* Generate the chunk that starts at block `first` into rng->buf. */
static void fill_chunk(engine_rng *rng, uint32_t first)
{
    uint8_t nonce[12];
    stream_nonce(rng->stream, nonce);
    engine_chacha20_blocks(rng->key, nonce, first, rng->buf, CHUNK_BLOCKS);
}

static void refill(engine_rng *rng)
{
    /* The 32-bit counter covers 256 GiB per stream; no game comes near. */
    fill_chunk(rng, rng->counter);
    rng->counter += CHUNK_BLOCKS;
    rng->pos = 0;
    rng->len = CHUNK_BYTES;
}

void engine_rng_init(engine_rng *rng, const uint8_t key[32], uint64_t stream)
{
    memset(rng, 0, sizeof *rng);
    memcpy(rng->key, key, 32);
    rng->stream = stream;
    /* Lazy: nothing is generated until the first draw, so games that never
     * draw pay nothing. */
}

void engine_rng_bytes(engine_rng *rng, void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        if (rng->pos >= rng->len)
            refill(rng);
        size_t take = (size_t)(rng->len - rng->pos);
        if (take > n)
            take = n;
        memcpy(p, rng->buf + rng->pos, take);
        rng->pos = (uint16_t)(rng->pos + take);
        p += take;
        n -= take;
    }
}

uint32_t engine_rng_u32(engine_rng *rng)
{
    uint8_t b[4];
    engine_rng_bytes(rng, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
           (uint32_t)b[3] << 24;
}

uint32_t engine_rng_below(engine_rng *rng, uint32_t bound)
{
    if (bound <= 1)
        return 0; /* draws nothing: there is only one answer */
    /* Reject the lowest 2^32 mod bound values so that the rest split into
     * equally sized classes mod bound. */
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t x = engine_rng_u32(rng);
        if (x >= threshold)
            return x % bound;
    }
}

void engine_rng_shuffle(engine_rng *rng, void *base, size_t n, size_t size)
{
    uint8_t tmp[64], *b = base;
    if (size == 0 || size > sizeof tmp || n < 2 || n > UINT32_MAX)
        return;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = engine_rng_below(rng, (uint32_t)(i + 1));
        if (j == i)
            continue;
        memcpy(tmp, b + i * size, size);
        memcpy(b + i * size, b + j * size, size);
        memcpy(b + j * size, tmp, size);
    }
}

json_t *engine_rng_save(const engine_rng *rng)
{
    char key[65];
    engine_hex(rng->key, 32, key);
    /* The buffer is not saved: it is block (counter - 4) onwards, which load
     * regenerates; pos says how much of it was used. */
    return json_pack("{s:s, s:I, s:I, s:i}", "key", key, "stream",
                     (json_int_t)rng->stream, "counter",
                     (json_int_t)rng->counter, "pos", (int)rng->pos);
}

int engine_rng_load(engine_rng *rng, const json_t *saved, engine_error *err)
{
    const char *key = NULL;
    json_int_t stream = 0, counter = 0, pos = 0;
    uint8_t k[32];
    if (!saved ||
        json_unpack((json_t *)saved, "{s:s, s:I, s:I, s:I !}", "key", &key,
                    "stream", &stream, "counter", &counter, "pos", &pos) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "rng",
                           "saved rng is not {key, stream, counter, pos}");
    if (engine_unhex(key, k, 32) != 0)
        return engine_fail(err, ENGINE_EINTERNAL, "rng",
                           "saved rng key is not 64 hex digits");
    if (counter < 0 || counter > UINT32_MAX || counter % CHUNK_BLOCKS != 0 ||
        pos < 0 || pos > CHUNK_BYTES || (counter == 0 && pos != 0))
        return engine_fail(err, ENGINE_EINTERNAL, "rng",
                           "saved rng counter/pos are inconsistent");
    engine_rng_init(rng, k, (uint64_t)stream);
    if (counter > 0) {
        fill_chunk(rng, (uint32_t)counter - CHUNK_BLOCKS);
        rng->len = CHUNK_BYTES;
        rng->pos = (uint16_t)pos;
    }
    rng->counter = (uint32_t)counter;
    return 0;
}
