// SPDX-License-Identifier: MIT
// A per-thread memo for a pure function an evaluation calls again and again with the same
// arguments: a collective's time for a message (collectiveTime). A slider drag or a plan search
// re-evaluates scenarios that share most of their messages, and each NCCL tuner choice (up to 12
// algorithm and protocol candidates) cost about 600 instructions, a quarter of an evaluation.
// A key is a flat record of 64-bit words holding every argument the function reads, compared bit
// for bit, so a hit returns exactly what the function would; two-way set-associative with the
// least recently used way replaced (direct-mapped, two messages an evaluation sends on one slot
// evicted each other every evaluation), a collision only recomputes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ts::detail {

/// `HashWords`: the key's leading words that pick its slot (put the arguments that vary most
/// first); the whole key is compared.
template<typename Key, typename Value, std::size_t Slots, std::size_t HashWords>
class Memo
{
    static_assert((Slots & (Slots - 1)) == 0, "Slots must be a power of two");
    static_assert(std::is_trivially_copyable_v<Key> && sizeof(Key) % 8 == 0, "a key is whole 64-bit words");
    static constexpr std::size_t kWords = sizeof(Key) / 8;
    static_assert(HashWords >= 1 && HashWords <= kWords);

public:
    /// The value stored for `key`, or nullptr.
    const Value *find(const Key &key)
    {
        const std::size_t set = setOf(key);
        for (std::size_t way = 0; way < 2; ++way) {
            Slot &slot = slots_[set + way];
            if (slot.generation == generation_ && sameKey(slot.key, key)) {
                slot.used = ++clock_;
                return &slot.value;
            }
        }
        return nullptr;
    }
    void store(const Key &key, const Value &value)
    {
        const std::size_t set = setOf(key);
        Slot &a = slots_[set], &b = slots_[set + 1];
        // An entry of an older generation is free; else the least recently used way goes.
        Slot &victim = a.generation != generation_ ? a : b.generation != generation_ ? b : a.used <= b.used ? a : b;
        victim = {generation_, ++clock_, key, value};
    }
    /// Forgets every entry at once: entries of an older generation never match.
    void clear() { ++generation_; }

private:
    // Bit for bit, word by word, inline (a call to memcmp cost a fifth of a hit).
    static bool sameKey(const Key &a, const Key &b)
    {
        std::array<std::uint64_t, kWords> x, y;
        std::memcpy(x.data(), &a, sizeof a);
        std::memcpy(y.data(), &b, sizeof b);
        std::uint64_t diff = 0;
#pragma GCC unroll 16
        for (std::size_t i = 0; i < kWords; ++i)
            diff |= x[i] ^ y[i];
        return diff == 0;
    }
    // Each word times its own odd constant, summed, then folded: a few instructions a word.
    static std::size_t setOf(const Key &key)
    {
        std::array<std::uint64_t, HashWords> words;
        std::memcpy(words.data(), &key, sizeof words);
        std::uint64_t hash = 0, multiplier = 0x9E3779B97F4A7C15ull;
#pragma GCC unroll 8
        for (std::uint64_t w : words) {
            hash += (w ^ (w >> 29)) * multiplier;
            multiplier += 0xD6E8FEB86659FD94ull;   // even step: every multiplier stays odd
        }
        hash ^= hash >> 32;
        hash ^= hash >> 16;
        return std::size_t(hash) & (Slots - 2);   // the set's first way (Slots / 2 sets of two)
    }
    struct Slot
    {
        std::uint64_t generation = 0;   // the memo's own generation starts at 1
        std::uint64_t used = 0;         // clock_ at the last hit or store
        Key key{};
        Value value{};
    };
    std::array<Slot, Slots> slots_{};
    std::uint64_t generation_ = 1;
    std::uint64_t clock_ = 0;
};

} // namespace ts::detail
