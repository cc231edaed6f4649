/*
 * test_rng.c - the engine's random numbers: ChaCha20 against RFC 8439's
 * vectors and an independent reference, the documented stream layout,
 * unbiased bounded draws (chi-square, with a check that the test can tell a
 * biased generator), shuffles, and save/load of a generator mid-stream.
 *
 * CONCLAVE_TEST_QUICK=1 shrinks the statistical loops about 10x (for
 * sanitizer runs); the bias-detection test keeps its size.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tests/unit/test.h"

static int quick(void)
{
    const char *q = getenv("CONCLAVE_TEST_QUICK");
    return q && strcmp(q, "1") == 0;
}

/* ---------------------------------------------- reference ChaCha20 block */

static uint32_t rotl(uint32_t v, int c)
{
    return v << c | v >> (32 - c);
}

static void qr(uint32_t *x, int a, int b, int c, int d)
{
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 16);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 12);
    x[a] += x[b], x[d] = rotl(x[d] ^ x[a], 8);
    x[c] += x[d], x[b] = rotl(x[b] ^ x[c], 7);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* RFC 8439 section 2.3, written from the text, to cross-check libcrypto. */
static void ref_block(const uint8_t key[32], const uint8_t nonce[12],
                      uint32_t counter, uint8_t out[64])
{
    uint32_t s[16], x[16];
    s[0] = 0x61707865, s[1] = 0x3320646e, s[2] = 0x79622d32, s[3] = 0x6b206574;
    for (int i = 0; i < 8; i++)
        s[4 + i] = le32(key + 4 * i);
    s[12] = counter;
    for (int i = 0; i < 3; i++)
        s[13 + i] = le32(nonce + 4 * i);
    memcpy(x, s, sizeof x);
    for (int r = 0; r < 10; r++) {
        qr(x, 0, 4, 8, 12);
        qr(x, 1, 5, 9, 13);
        qr(x, 2, 6, 10, 14);
        qr(x, 3, 7, 11, 15);
        qr(x, 0, 5, 10, 15);
        qr(x, 1, 6, 11, 12);
        qr(x, 2, 7, 8, 13);
        qr(x, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; i++) {
        uint32_t v = x[i] + s[i];
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (uint8_t)(v >> (8 * k));
    }
}

/* XOR the keystream from (key, nonce, counter) over msg. */
static void chacha_xor(const uint8_t *key, const uint8_t *nonce,
                       uint32_t counter, uint8_t *msg, size_t n)
{
    size_t blocks = (n + 63) / 64;
    uint8_t *ks = malloc(64 * blocks);
    engine_chacha20_blocks(key, nonce, counter, ks, blocks);
    for (size_t i = 0; i < n; i++)
        msg[i] ^= ks[i];
    free(ks);
}

static int hex_equals(const uint8_t *bytes, size_t n, const char *hex)
{
    char *got = malloc(2 * n + 1);
    engine_hex(bytes, n, got);
    int eq = strcmp(got, hex) == 0;
    if (!eq)
        fprintf(stderr, "  got  %s\n  want %s\n", got, hex);
    free(got);
    return eq;
}

static void test_rfc8439_block_2_3_2(void)
{
    uint8_t key[32], nonce[12], out[64];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    REQUIRE(engine_unhex("000000090000004a00000000", nonce, 12) == 0);
    engine_chacha20_blocks(key, nonce, 1, out, 1);
    CHECK(hex_equals(out, 64,
                     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9a"
                     "c3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9"
                     "cbd083e8a2503c4e"));
}

static void test_rfc8439_encrypt_2_4_2(void)
{
    uint8_t key[32], nonce[12];
    char msg[] = "Ladies and Gentlemen of the class of '99: If I could offer "
                 "you only one tip for the future, sunscreen would be it.";
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    REQUIRE(engine_unhex("000000000000004a00000000", nonce, 12) == 0);
    REQUIRE(strlen(msg) == 114);
    chacha_xor(key, nonce, 1, (uint8_t *)msg, 114);
    CHECK(hex_equals(
        (uint8_t *)msg, 114,
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        "5af90bbf74a35be6b40b8eedf2785e42874d"));
}

static const struct {
    const char *key, *nonce;
    uint32_t counter;
    const char *plain, *cipher;
} a2[] = {
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 0,
     "0000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000",
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"0000000000000000000000000000000000000000000000000000000000000001",
     "000000000000000000000002", 1,
     "416e79207375626d697373696f6e20746f20746865204945544620696e74656e"
     "6465642062792074686520436f6e7472696275746f7220666f72207075626c69"
     "636174696f6e20617320616c6c206f722070617274206f6620616e2049455446"
     "20496e7465726e65742d4472616674206f722052464320616e6420616e792073"
     "746174656d656e74206d6164652077697468696e2074686520636f6e74657874"
     "206f6620616e204945544620616374697669747920697320636f6e7369646572"
     "656420616e20224945544620436f6e747269627574696f6e222e205375636820"
     "73746174656d656e747320696e636c756465206f72616c2073746174656d656e"
     "747320696e20494554462073657373696f6e732c2061732077656c6c20617320"
     "7772697474656e20616e6420656c656374726f6e696320636f6d6d756e696361"
     "74696f6e73206d61646520617420616e792074696d65206f7220706c6163652c"
     "207768696368206172652061646472657373656420746f",
     "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec"
     "2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d"
     "4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
     "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a"
     "d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
     "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
     "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c"
     "cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b"
     "c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
     "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
     "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab"
     "7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221"},
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "000000000000000000000002", 42,
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f"
     "7665730a446964206779726520616e642067696d626c6520696e207468652077"
     "6162653a0a416c6c206d696d737920776572652074686520626f726f676f7665"
     "732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
     "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
     "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
     "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
     "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"},
};

static void test_rfc8439_appendix_a2(void)
{
    for (size_t v = 0; v < sizeof a2 / sizeof a2[0]; v++) {
        uint8_t key[32], nonce[12], msg[512];
        size_t n = strlen(a2[v].plain) / 2;
        REQUIRE(engine_unhex(a2[v].key, key, 32) == 0);
        REQUIRE(engine_unhex(a2[v].nonce, nonce, 12) == 0);
        REQUIRE(n <= sizeof msg && engine_unhex(a2[v].plain, msg, n) == 0);
        chacha_xor(key, nonce, a2[v].counter, msg, n);
        CHECKF(hex_equals(msg, n, a2[v].cipher), "vector A.2 #%zu", v + 1);
    }
}

/* libcrypto agrees with the reference for random keys, nonces, counters
 * and multi-block runs. */
static void test_matches_reference(void)
{
    engine_rng src;
    uint8_t seed[32] = {7};
    engine_rng_init(&src, seed, 99);
    for (int t = 0; t < 200; t++) {
        uint8_t key[32], nonce[12], got[64 * 5], want[64];
        engine_rng_bytes(&src, key, 32);
        engine_rng_bytes(&src, nonce, 12);
        uint32_t counter = engine_rng_u32(&src) % 0xFFFFFF00u;
        engine_chacha20_blocks(key, nonce, counter, got, 5);
        for (int b = 0; b < 5; b++) {
            ref_block(key, nonce, counter + (uint32_t)b, want);
            CHECKF(memcmp(got + 64 * b, want, 64) == 0, "trial %d block %d", t,
                   b);
        }
    }
}

/* The documented layout: key = the key, nonce = 4 zero bytes then the
 * stream id little-endian, counter from 0; reads of any size concatenate. */
static void test_stream_layout(void)
{
    uint8_t key[32], nonce[12] = {0}, want[64 * 12], got[64 * 12];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(0xA0 + i);
    uint64_t stream = UINT64_C(0x0123456789ABCDEF);
    for (int i = 0; i < 8; i++)
        nonce[4 + i] = (uint8_t)(stream >> (8 * i));
    engine_chacha20_blocks(key, nonce, 0, want, 12);

    static const size_t steps[] = {1, 3, 4, 64, 7, 200, 256, 5, 1, 100};
    engine_rng rng;
    engine_rng_init(&rng, key, stream);
    size_t off = 0;
    for (size_t i = 0; off < sizeof got; i = (i + 1) % 10) {
        size_t n = steps[i];
        if (n > sizeof got - off)
            n = sizeof got - off;
        engine_rng_bytes(&rng, got + off, n);
        off += n;
    }
    CHECK(memcmp(got, want, sizeof got) == 0);

    /* u32 is the next 4 bytes, little-endian. */
    engine_rng_init(&rng, key, stream);
    CHECK_EQ_INT(engine_rng_u32(&rng), le32(want));
    /* Another stream id gives another stream. */
    engine_rng_init(&rng, key, stream + 1);
    engine_rng_bytes(&rng, got, 64);
    CHECK(memcmp(got, want, 64) != 0);
}

/* -------------------------------------------------------- bounded draws */

/* Chi-square critical value for df degrees of freedom at z standard
 * deviations (Wilson-Hilferty); z = 4.3 is about p = 1e-5. */
static double chi2_critical(int df, double z)
{
    double k = df, h = 2.0 / (9.0 * k);
    return k * pow(1.0 - h + z * sqrt(h), 3.0);
}

static double chi2(const long *counts, int k, long total)
{
    double expect = (double)total / k, sum = 0;
    for (int i = 0; i < k; i++) {
        double d = counts[i] - expect;
        sum += d * d / expect;
    }
    return sum;
}

typedef uint32_t (*draw_fn)(engine_rng *rng, uint32_t bound);

static uint32_t draw_engine(engine_rng *rng, uint32_t bound)
{
    return engine_rng_below(rng, bound);
}

/* The classic mistake: one random byte, reduced mod bound. */
static uint32_t draw_biased_byte(engine_rng *rng, uint32_t bound)
{
    uint8_t b;
    engine_rng_bytes(rng, &b, 1);
    return b % bound;
}

/* Draw `draws` values below bound, fold them into `buckets` equal ranges
 * (buckets == bound for small bounds), return chi-square. */
static double chi2_draws(draw_fn draw, uint32_t bound, int buckets, long draws,
                         uint64_t stream)
{
    uint8_t key[32] = {42};
    engine_rng rng;
    long *counts = calloc((size_t)buckets, sizeof *counts);
    engine_rng_init(&rng, key, stream);
    for (long i = 0; i < draws; i++) {
        uint32_t v = draw(&rng, bound);
        if (v >= bound) {
            free(counts);
            return 1e9;
        }
        counts[(uint64_t)v * (uint64_t)buckets / bound]++;
    }
    double x = chi2(counts, buckets, draws);
    free(counts);
    return x;
}

static void test_below_unbiased(void)
{
    static const uint32_t bounds[] = {2, 3, 5, 6, 7, 10, 52, 100, 1000};
    long draws = quick() ? 100000 : 1000000;
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
        int k = (int)bounds[i];
        double x = chi2_draws(draw_engine, bounds[i], k, draws, 1000 + i);
        CHECKF(x < chi2_critical(k - 1, 4.3), "bound %u: chi2 %.1f > %.1f",
               bounds[i], x, chi2_critical(k - 1, 4.3));
    }
    /* Large bounds that are not powers of two, folded into 3 ranges: a
     * 32-bit source reduced with % would put half of all draws into the
     * first range of 0xC0000000 and ~2/3 below 2^31 for 0x80000001... */
    static const uint32_t big[] = {0xC0000000u, 0x80000001u, 0xFFFFFFFFu,
                                   3000000019u};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        double x = chi2_draws(draw_engine, big[i], 3, draws, 2000 + i);
        CHECKF(x < chi2_critical(2, 4.3), "bound %u: chi2 %.1f", big[i], x);
    }
}

/* The check above can fail: a byte reduced mod 3 (0 has 86/256, 1 and 2
 * 85/256) is caught. At 10^6 draws its expected chi-square (~30) already
 * exceeds the threshold (~24); 4*10^6 makes the verdict certain. */
static void test_bias_is_detectable(void)
{
    double crit = chi2_critical(2, 4.3);
    double biased = chi2_draws(draw_biased_byte, 3, 3, 4000000, 7);
    double fair = chi2_draws(draw_engine, 3, 3, 4000000, 7);
    CHECKF(biased > crit, "biased chi2 %.1f should exceed %.1f", biased, crit);
    CHECKF(fair < crit, "fair chi2 %.1f should stay under %.1f", fair, crit);
}

static void test_below_edges(void)
{
    uint8_t key[32] = {1};
    engine_rng rng, before;
    engine_rng_init(&rng, key, 5);
    before = rng;
    CHECK_EQ_INT(engine_rng_below(&rng, 1), 0);
    CHECK_EQ_INT(engine_rng_below(&rng, 0), 0);
    CHECK(memcmp(&rng, &before, sizeof rng) == 0); /* drew nothing */
    for (int i = 0; i < 1000; i++) {
        CHECK(engine_rng_below(&rng, 0xFFFFFFFFu) < 0xFFFFFFFFu);
        CHECK(engine_rng_below(&rng, 2) < 2);
    }
}

/* ------------------------------------------------------------- shuffles */

static void test_shuffle_permutation(void)
{
    uint8_t key[32] = {3};
    engine_rng rng;
    engine_rng_init(&rng, key, 0);
    for (size_t n = 0; n <= 60; n++) {
        uint32_t a[60];
        struct {
            uint16_t id;
            char pad[13];
        } w[60];
        for (size_t i = 0; i < n; i++) {
            a[i] = (uint32_t)i;
            w[i].id = (uint16_t)i;
            memset(w[i].pad, (int)i, sizeof w[i].pad);
        }
        engine_rng_shuffle(&rng, a, n, sizeof a[0]);
        engine_rng_shuffle(&rng, w, n, sizeof w[0]);
        int seen[60] = {0}, seen_w[60] = {0}, ok = 1;
        for (size_t i = 0; i < n; i++) {
            ok &= a[i] < n && !seen[a[i]]++;
            ok &= w[i].id < n && !seen_w[w[i].id]++;
            ok &= w[i].pad[12] == (char)w[i].id; /* elements move whole */
        }
        CHECKF(ok, "n=%zu is not a permutation", n);
    }
}

/* All 24 orders of 4 elements come up equally often. */
static void test_shuffle_uniform(void)
{
    uint8_t key[32] = {4};
    engine_rng rng;
    long counts[24] = {0}, trials = quick() ? 24000 : 240000;
    engine_rng_init(&rng, key, 0);
    for (long t = 0; t < trials; t++) {
        int a[4] = {0, 1, 2, 3};
        engine_rng_shuffle(&rng, a, 4, sizeof a[0]);
        /* Lehmer code of the permutation -> 0..23 */
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int smaller = 0;
            for (int j = i + 1; j < 4; j++)
                smaller += a[j] < a[i];
            code = code * (4 - i) + smaller;
        }
        counts[code]++;
    }
    double x = chi2(counts, 24, trials);
    CHECKF(x < chi2_critical(23, 4.3), "chi2 %.1f", x);
}

/* ------------------------------------------------------------ save/load */

static void test_save_load_midstream(void)
{
    uint8_t key[32] = {9, 8, 7};
    static const size_t skips[] = {0, 1, 63, 64, 255, 256, 257, 1000, 1024};
    for (size_t i = 0; i < sizeof skips / sizeof skips[0]; i++) {
        engine_rng a, b;
        engine_error err = {0};
        uint8_t junk[1024], x[300], y[300];
        engine_rng_init(&a, key, 77);
        engine_rng_bytes(&a, junk, skips[i]);
        json_t *saved = engine_rng_save(&a);
        REQUIRE(saved);
        CHECK(engine_rng_load(&b, saved, &err) == 0);
        engine_rng_bytes(&a, x, sizeof x);
        engine_rng_bytes(&b, y, sizeof y);
        CHECKF(memcmp(x, y, sizeof x) == 0, "after %zu bytes", skips[i]);
        /* Save -> load -> save is the identity. */
        json_t *again = engine_rng_save(&b);
        engine_rng c;
        CHECK(engine_rng_load(&c, saved, &err) == 0);
        json_t *resaved = engine_rng_save(&c);
        CHECK(json_equal(saved, resaved));
        json_decref(saved);
        json_decref(again);
        json_decref(resaved);
    }
    /* Corrupt documents are refused. */
    engine_rng r;
    engine_error err = {0};
    json_t *bad = json_pack("{s:s, s:i, s:i, s:i}", "key", "zz", "stream", 0,
                            "counter", 0, "pos", 0);
    CHECK(engine_rng_load(&r, bad, &err) == ENGINE_EINTERNAL);
    json_decref(bad);
    char hex[65];
    engine_hex(key, 32, hex);
    bad = json_pack("{s:s, s:i, s:i, s:i}", "key", hex, "stream", 0, "counter",
                    5, "pos", 0);
    CHECK(engine_rng_load(&r, bad, &err) == ENGINE_EINTERNAL);
    json_decref(bad);
    bad = json_pack("{s:s, s:i, s:i, s:i}", "key", hex, "stream", 0, "counter",
                    4, "pos", 257);
    CHECK(engine_rng_load(&r, bad, &err) == ENGINE_EINTERNAL);
    json_decref(bad);
}

static void test_copy_forks(void)
{
    uint8_t key[32] = {5};
    engine_rng a, b;
    engine_rng_init(&a, key, 1);
    (void)engine_rng_u32(&a);
    b = a; /* plain data: a copy continues identically */
    for (int i = 0; i < 500; i++)
        CHECK(engine_rng_u32(&a) == engine_rng_u32(&b));
}

int main(void)
{
    RUN(test_rfc8439_block_2_3_2);
    RUN(test_rfc8439_encrypt_2_4_2);
    RUN(test_rfc8439_appendix_a2);
    RUN(test_matches_reference);
    RUN(test_stream_layout);
    RUN(test_below_unbiased);
    RUN(test_bias_is_detectable);
    RUN(test_below_edges);
    RUN(test_shuffle_permutation);
    RUN(test_shuffle_uniform);
    RUN(test_save_load_midstream);
    RUN(test_copy_forks);
    return TEST_SUMMARY();
}
