#pragma once

// The decoder behind decodePickle(), in two files: the machine that runs the opcodes of plain data and keeps the
// stack, the memo and the limits (safepickle.cpp; one file, so that the opcodes of the hot loop stay together), and
// the opcodes that would run code, refused or, for torch weights, recorded as inert values (picklecode.cpp).
// Internal to importers/memory.

#include "importers/memory/safepickle.h"

#include <QCoreApplication>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

namespace runlens::importers::memory {

namespace detail {

/// The translation context of the decoder's messages that are not its own members'.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

constexpr std::uint32_t kNoValue = std::numeric_limits<std::uint32_t>::max();

} // namespace detail

class PickleDecoder
{
public:
    PickleDecoder(std::string_view data, const QString& fileName, ImportBudget& budget, const ImportControl& control,
                  const PickleLimits& limits, PickleResult& result)
        : m_data(data)
        , m_fileName(fileName)
        , m_budget(budget)
        , m_control(control)
        , m_limits(limits)
        , m_result(result)
        , m_doc(result.document)
    {
        std::fill(std::begin(m_sharedInts), std::end(m_sharedInts), detail::kNoValue);
    }

    void run();

private:
    // Under the class's own context, where lupdate files the strings of its members.
    Q_DECLARE_TR_FUNCTIONS(runlens::importers::memory::PickleDecoder)

    /// What one opcode left the decoder to do.
    enum class Stop { Continue, Done, Error };

    void error(std::size_t offset, const QString& message)
    {
        models::Diagnostic diagnostic;
        diagnostic.severity = models::Severity::Error;
        diagnostic.file = m_fileName;
        diagnostic.offset = qint64(offset);
        diagnostic.message = message;
        m_result.diagnostics.append(diagnostic);
    }

    bool need(std::size_t bytes) const { return m_data.size() - m_pos >= bytes; }

    template<typename T> T readLe()
    {
        using Unsigned = std::make_unsigned_t<T>;
        Unsigned raw = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i)
            raw |= Unsigned(Unsigned(std::uint8_t(m_data[m_pos + i])) << (8 * i));
        m_pos += sizeof(T);
        return T(raw);
    }

    /// An unsigned little-endian number of `width` bytes (1, 2, 4 or 8) at the read position.
    std::uint64_t readUnsigned(std::size_t width)
    {
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < width; ++i)
            value |= std::uint64_t(std::uint8_t(m_data[m_pos + i])) << (8 * i);
        m_pos += width;
        return value;
    }

    /// A decimal line of the text opcodes (INT, PUT, GET); nothing when malformed or unterminated.
    std::optional<std::int64_t> readDecimalLine();

    std::uint32_t add(PickleType type, std::int64_t integer = 0)
    {
        // Every value made is spent; run() stops at the opcode that passed the budget.
        m_budget.spendElements(1);
        m_doc.m_nodes.push_back({ type, integer });
        return std::uint32_t(m_doc.m_nodes.size() - 1);
    }
    std::uint32_t addReal(PickleType type, double real) { return add(type, std::bit_cast<std::int64_t>(real)); }
    /// None, booleans and small integers are immutable and frequent (sizes, lines, streams): one node each.
    std::uint32_t addShared(PickleType type, std::int64_t value)
    {
        const bool small = type == PickleType::Int && value >= 0 && value < std::int64_t(kSharedInts);
        std::uint32_t* slot = type == PickleType::None ? &m_sharedNone
            : type == PickleType::Bool                 ? &m_sharedBool[value != 0 ? 1 : 0]
            : small                                    ? &m_sharedInts[std::size_t(value)]
                                                       : nullptr;
        if (!slot)
            return add(type, value);
        if (*slot == detail::kNoValue)
            *slot = add(type, value);
        return *slot;
    }
    std::uint32_t addText(PickleType type, std::string_view text)
    {
        m_doc.m_texts.emplace_back(text);
        return add(type, std::int64_t(m_doc.m_texts.size() - 1));
    }
    std::uint32_t addContainer(PickleType type, std::vector<std::uint32_t> items = {})
    {
        m_budget.spendElements(std::int64_t(items.size()));
        m_doc.m_items.push_back(std::move(items));
        return add(type, std::int64_t(m_doc.m_items.size() - 1));
    }
    std::vector<std::uint32_t>& itemsOf(std::uint32_t node)
    {
        return m_doc.m_items[std::size_t(m_doc.m_nodes[node].integer)];
    }
    bool isContainer(std::uint32_t node, PickleType type) const
    {
        return node != detail::kNoValue && m_doc.m_nodes[node].type == type;
    }

    /// Pops the items above the innermost MARK (and the MARK); false when there is no MARK.
    bool popMark(std::vector<std::uint32_t>& items);
    /// Adds `items` to the container `target` (APPENDS, SETITEMS, ADDITEMS); a message when it cannot.
    std::optional<QString> extend(std::uint32_t target, std::vector<std::uint32_t> items, std::uint8_t op);
    /// Closes whatever is still open at a truncation so the values read so far stay reachable from the root.
    void salvage();

    QString describeCodeOpcode(std::uint8_t op, std::size_t offset);

    /// Decodes the opcode at the read position.
    Stop step();
    // One group of opcodes each; nothing when `op` is not of the group.
    std::optional<Stop> stackOpcode(std::uint8_t op); ///< PROTO, FRAME, STOP, MARK, POP, DUP
    std::optional<Stop> scalarOpcode(std::uint8_t op); ///< None, booleans, numbers, strings, bytes
    std::optional<Stop> containerOpcode(std::uint8_t op); ///< tuples, lists, dicts, sets and their updates
    std::optional<Stop> memoOpcode(std::uint8_t op); ///< MEMOIZE, PUT, GET
    /// Code opcodes (refused), the text protocols' opcodes and unknown bytes.
    Stop unknownOpcode(std::uint8_t op);
    /// GLOBAL, STACK_GLOBAL, REDUCE, BUILD and BINPERSID as PickleLimits::torchWeights allows them.
    Stop torchOpcode(std::uint8_t op);
    /// Refuses the file for what `what` (a global or a value) asked for.
    Stop refuseTorch(const QString& what);

    // The errors of the opcode being decoded (m_op at m_opOffset).
    Stop truncated();
    Stop malformed(const QString& why);

    // Pushes are not spent: the stack grows by at most one entry per byte, and what is shared through DUP and
    // GET is spent when it is stored in a container.
    void push(std::uint32_t node) { m_stack.push_back(node); }
    std::uint32_t pop()
    {
        const std::uint32_t node = m_stack.back();
        m_stack.pop_back();
        return node;
    }
    /// Whether `count` values are on the stack above the innermost MARK.
    bool available(std::size_t count) const
    {
        const std::size_t floor = m_marks.empty() ? 0 : m_marks.back();
        return m_stack.size() >= floor + count;
    }
    Stop pushText(PickleType type, std::uint64_t length);
    Stop memoPut(std::uint64_t index);
    Stop memoGet(std::uint64_t index);

    std::string_view m_data;
    const QString& m_fileName;
    ImportBudget& m_budget;
    const ImportControl& m_control;
    const PickleLimits& m_limits;
    PickleResult& m_result;
    PickleDocument& m_doc;

    std::size_t m_pos = 0;
    std::size_t m_opOffset = 0; ///< where the opcode being decoded starts
    std::uint8_t m_op = 0;
    std::vector<std::uint32_t> m_stack;
    std::vector<std::size_t> m_marks; ///< stack sizes at each open MARK
    std::vector<std::uint32_t> m_memo;
    bool m_refused = false; ///< a code opcode was met: nothing of the file is kept
    static constexpr std::size_t kSharedInts = 256;
    std::uint32_t m_sharedNone = detail::kNoValue;
    std::uint32_t m_sharedBool[2] = { detail::kNoValue, detail::kNoValue };
    std::uint32_t m_sharedInts[kSharedInts];
};

namespace detail {

// After the decoder: lupdate misreads an enum with a fixed underlying type, and the classes declared after it
// in a header would lose the translation contexts of their tr() calls.

// Opcodes of pickle protocols 0-5 (Lib/pickletools.py documents each).
enum Op : std::uint8_t {
    kMark = '(',
    kStop = '.',
    kPop = '0',
    kPopMark = '1',
    kDup = '2',
    kFloat = 'F',
    kInt = 'I',
    kBinInt = 'J',
    kBinInt1 = 'K',
    kLong = 'L',
    kBinInt2 = 'M',
    kNone = 'N',
    kPersId = 'P',
    kBinPersId = 'Q',
    kReduce = 'R',
    kString = 'S',
    kBinString = 'T',
    kShortBinString = 'U',
    kUnicode = 'V',
    kBinUnicode = 'X',
    kAppend = 'a',
    kBuild = 'b',
    kGlobal = 'c',
    kDict = 'd',
    kEmptyDict = '}',
    kAppends = 'e',
    kGet = 'g',
    kBinGet = 'h',
    kInst = 'i',
    kLongBinGet = 'j',
    kList = 'l',
    kEmptyList = ']',
    kObj = 'o',
    kPut = 'p',
    kBinPut = 'q',
    kLongBinPut = 'r',
    kSetItem = 's',
    kTuple = 't',
    kEmptyTuple = ')',
    kSetItems = 'u',
    kBinFloat = 'G',
    kProto = 0x80,
    kNewObj = 0x81,
    kExt1 = 0x82,
    kExt2 = 0x83,
    kExt4 = 0x84,
    kTuple1 = 0x85,
    kTuple2 = 0x86,
    kTuple3 = 0x87,
    kNewTrue = 0x88,
    kNewFalse = 0x89,
    kLong1 = 0x8a,
    kLong4 = 0x8b,
    kBinBytes = 'B',
    kShortBinBytes = 'C',
    kShortBinUnicode = 0x8c,
    kBinUnicode8 = 0x8d,
    kBinBytes8 = 0x8e,
    kEmptySet = 0x8f,
    kAddItems = 0x90,
    kFrozenSet = 0x91,
    kNewObjEx = 0x92,
    kStackGlobal = 0x93,
    kMemoize = 0x94,
    kFrame = 0x95,
    kByteArray8 = 0x96,
    kNextBuffer = 0x97,
    kReadOnlyBuffer = 0x98,
};

} // namespace detail

} // namespace runlens::importers::memory
