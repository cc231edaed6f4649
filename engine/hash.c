/*
 * hash.c - SHA-256 (libcrypto EVP), hex coding and canonical JSON: the
 * pieces that state hashes, receipts and seed commitments are built from.
 *
 * Canonical JSON is jansson's compact encoding with keys sorted, so two
 * equal values always give the same bytes. It is what gets hashed, never
 * what gets parsed back.
 */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

void engine_sha256(const void *data, size_t n, uint8_t out[ENGINE_HASH_BYTES])
{
    unsigned int len = 0;
    /* EVP_Digest fails only when libcrypto cannot allocate. */
    if (EVP_Digest(data, n, out, &len, EVP_sha256(), NULL) != 1 ||
        len != ENGINE_HASH_BYTES)
        abort();
}

void engine_hex(const uint8_t *bytes, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int engine_unhex(const char *hex, uint8_t *out, size_t n)
{
    if (!hex || strlen(hex) != 2 * n)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

char *engine_canonical_json(const json_t *value)
{
    if (!value)
        return NULL;
    return json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}
