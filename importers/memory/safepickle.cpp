#include "importers/memory/safepickle.h"

#include <QCoreApplication>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace runlens::importers::memory {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

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

const char* opcodeName(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
        return "GLOBAL";
    case kStackGlobal:
        return "STACK_GLOBAL";
    case kReduce:
        return "REDUCE";
    case kBuild:
        return "BUILD";
    case kInst:
        return "INST";
    case kObj:
        return "OBJ";
    case kNewObj:
        return "NEWOBJ";
    case kNewObjEx:
        return "NEWOBJ_EX";
    case kPersId:
        return "PERSID";
    case kBinPersId:
        return "BINPERSID";
    case kExt1:
        return "EXT1";
    case kExt2:
        return "EXT2";
    case kExt4:
        return "EXT4";
    case kNextBuffer:
        return "NEXT_BUFFER";
    case kReadOnlyBuffer:
        return "READONLY_BUFFER";
    case kFloat:
        return "FLOAT";
    case kLong:
        return "LONG";
    case kString:
        return "STRING";
    case kUnicode:
        return "UNICODE";
    default:
        return nullptr;
    }
}

/// Opcodes that reach Python code (import, call, object construction) or data outside the pickle.
bool isCodeOpcode(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
    case kStackGlobal:
    case kReduce:
    case kBuild:
    case kInst:
    case kObj:
    case kNewObj:
    case kNewObjEx:
    case kPersId:
    case kBinPersId:
    case kExt1:
    case kExt2:
    case kExt4:
    case kNextBuffer:
    case kReadOnlyBuffer:
        return true;
    default:
        return false;
    }
}

// What torch's weights-only unpickler allows of the globals a tensor data.pkl uses (torch/_weights_only_unpickler.py).
constexpr std::string_view kTorchCallables[] = {
    "torch._utils._rebuild_tensor_v2",
    "torch._utils._rebuild_tensor_v3",
    "torch._utils._rebuild_tensor",
    "torch._utils._rebuild_parameter",
};
constexpr std::string_view kTorchStorageTypes[] = {
    "torch.FloatStorage", "torch.HalfStorage", "torch.BFloat16Storage", "torch.DoubleStorage",
    "torch.LongStorage",  "torch.IntStorage",  "torch.ShortStorage",    "torch.CharStorage",
    "torch.ByteStorage",  "torch.BoolStorage", "torch.UntypedStorage",
};
// The dtypes _rebuild_tensor_v3 names (those without a legacy storage type, and the others for completeness).
constexpr std::string_view kTorchDtypes[] = {
    "torch.float32", "torch.float16", "torch.bfloat16", "torch.float64",       "torch.int64",
    "torch.int32",   "torch.int16",   "torch.int8",     "torch.uint8",         "torch.bool",
    "torch.uint16",  "torch.uint32",  "torch.uint64",   "torch.float8_e4m3fn", "torch.float8_e5m2",
};
constexpr std::string_view kOrderedDict = "collections.OrderedDict";
constexpr std::string_view kTorchSize = "torch.Size";
// Longer module or attribute names are no torch global; they are cut in messages.
constexpr std::size_t kMaxGlobalNameBytes = 200;

bool isTorchCallable(std::string_view name)
{
    return std::find(std::begin(kTorchCallables), std::end(kTorchCallables), name) != std::end(kTorchCallables);
}

bool isAllowedTorchGlobal(std::string_view name)
{
    return isTorchCallable(name) || name == kOrderedDict || name == kTorchSize
        || std::find(std::begin(kTorchStorageTypes), std::end(kTorchStorageTypes), name) != std::end(kTorchStorageTypes)
        || std::find(std::begin(kTorchDtypes), std::end(kTorchDtypes), name) != std::end(kTorchDtypes);
}

constexpr std::uint32_t kNoValue = std::numeric_limits<std::uint32_t>::max();
// Picklers number memo entries consecutively; a larger jump is damage and must not size the memo.
constexpr std::uint64_t kMaxMemoGap = 1u << 20;
constexpr std::int64_t kMemoEntryBytes = sizeof(std::uint32_t);
constexpr std::size_t kProgressEvery = 1u << 16;

} // namespace

// ---------------------------------------------------------------------------------------------------------------

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
        std::fill(std::begin(m_sharedInts), std::end(m_sharedInts), kNoValue);
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
        if (*slot == kNoValue)
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
        return node != kNoValue && m_doc.m_nodes[node].type == type;
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
    std::uint32_t m_sharedNone = kNoValue;
    std::uint32_t m_sharedBool[2] = { kNoValue, kNoValue };
    std::uint32_t m_sharedInts[kSharedInts];
};

std::optional<std::int64_t> PickleDecoder::readDecimalLine()
{
    const std::size_t end = m_data.find('\n', m_pos);
    if (end == std::string_view::npos || end - m_pos > 24)
        return std::nullopt;
    std::string_view text = m_data.substr(m_pos, end - m_pos);
    m_pos = end + 1;
    bool negative = false;
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text.size() > 18)
        return std::nullopt;
    std::int64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return negative ? -value : value;
}

bool PickleDecoder::popMark(std::vector<std::uint32_t>& items)
{
    if (m_marks.empty())
        return false;
    const std::size_t base = m_marks.back();
    m_marks.pop_back();
    items.assign(m_stack.begin() + std::ptrdiff_t(base), m_stack.end());
    m_stack.resize(base);
    return true;
}

std::optional<QString> PickleDecoder::extend(std::uint32_t target, std::vector<std::uint32_t> items, std::uint8_t op)
{
    const bool dictOp = op == kSetItem || op == kSetItems;
    const bool setOp = op == kAddItems;
    const PickleType wanted = dictOp ? PickleType::Dict : setOp ? PickleType::Set : PickleType::List;
    if (!isContainer(target, wanted))
        return Text::tr("the value it adds to is not a %1")
            .arg(dictOp      ? QStringLiteral("dict")
                     : setOp ? QStringLiteral("set")
                             : QStringLiteral("list"));
    if (dictOp && items.size() % 2 != 0)
        return Text::tr("a key without a value");
    if (!m_budget.spendElements(std::int64_t(items.size())))
        return std::nullopt; // not added; run() reports the budget at this opcode
    std::vector<std::uint32_t>& into = itemsOf(target);
    if (into.empty())
        into = std::move(items);
    else
        into.insert(into.end(), items.begin(), items.end());
    return std::nullopt;
}

void PickleDecoder::salvage()
{
    while (!m_marks.empty()) {
        std::vector<std::uint32_t> items;
        popMark(items);
        if (m_stack.empty())
            break;
        const std::uint32_t target = m_stack.back();
        if (isContainer(target, PickleType::Dict)) {
            if (items.size() % 2 != 0)
                items.pop_back();
            extend(target, std::move(items), kSetItems);
        } else if (isContainer(target, PickleType::List)) {
            extend(target, std::move(items), kAppends);
        } else if (isContainer(target, PickleType::Set)) {
            extend(target, std::move(items), kAddItems);
        } else {
            // MARK ... TUPLE / LIST / DICT: the items become a value of their own.
            m_stack.push_back(addContainer(PickleType::Tuple, std::move(items)));
        }
    }
}

QString PickleDecoder::describeCodeOpcode(std::uint8_t op, std::size_t offset)
{
    QString what;
    if (op == kGlobal || op == kInst) {
        // Two text lines: module and name. Shown so the user sees what the file asked for.
        std::size_t at = offset + 1;
        QStringList parts;
        for (int line = 0; line < 2; ++line) {
            const std::size_t end = m_data.find('\n', at);
            if (end == std::string_view::npos || end - at > 200)
                break;
            parts << QString::fromUtf8(m_data.data() + at, qsizetype(end - at));
            at = end + 1;
        }
        if (parts.size() == 2)
            what = parts.join(QLatin1Char('.'));
    } else if (op == kStackGlobal && m_stack.size() >= 2) {
        const PickleValue module(&m_doc, m_stack[m_stack.size() - 2]);
        const PickleValue name(&m_doc, m_stack.back());
        if (module.isString() && name.isString())
            what = module.toString() + QLatin1Char('.') + name.toString();
    }
    const QString opcode
        = QStringLiteral("%1 (0x%2)").arg(QLatin1String(opcodeName(op))).arg(int(op), 2, 16, QLatin1Char('0'));
    if (!what.isEmpty()) {
        return Text::tr("pickle opcode %1 at offset %2 refers to the Python object %3; refused: RunLens reads only "
                        "plain data from pickles and never imports or runs code from a file")
            .arg(opcode)
            .arg(offset)
            .arg(what);
    }
    return Text::tr("pickle opcode %1 at offset %2 would import, call or build Python objects; refused: RunLens reads "
                    "only plain data from pickles and never imports or runs code from a file")
        .arg(opcode)
        .arg(offset);
}

PickleDecoder::Stop PickleDecoder::truncated()
{
    error(m_opOffset,
          Text::tr("the pickle ends inside the opcode at offset %1 (0x%2); the file is truncated")
              .arg(m_opOffset)
              .arg(int(m_op), 2, 16, QLatin1Char('0')));
    return Stop::Error;
}

PickleDecoder::Stop PickleDecoder::malformed(const QString& why)
{
    error(m_opOffset,
          Text::tr("malformed pickle at offset %1 (opcode 0x%2): %3")
              .arg(m_opOffset)
              .arg(int(m_op), 2, 16, QLatin1Char('0'))
              .arg(why));
    return Stop::Error;
}

PickleDecoder::Stop PickleDecoder::pushText(PickleType type, std::uint64_t length)
{
    if (length > m_limits.maxStringBytes)
        return malformed(
            Text::tr("a string of %1 bytes is over the limit of %2").arg(length).arg(m_limits.maxStringBytes));
    if (!need(std::size_t(length)))
        return truncated();
    push(addText(type, m_data.substr(m_pos, std::size_t(length))));
    m_pos += std::size_t(length);
    return Stop::Continue;
}

PickleDecoder::Stop PickleDecoder::memoPut(std::uint64_t index)
{
    if (m_stack.empty())
        return malformed(Text::tr("memo store with an empty stack"));
    if (index >= m_memo.size()) {
        // Each entry stored before needed an opcode of its own, so no pickler can reach an index beyond the
        // bytes read so far: a larger one would size the memo from a number instead of the data.
        if (index > m_pos || index - m_memo.size() > kMaxMemoGap)
            return malformed(Text::tr("memo index %1 is beyond the %2 entries a pickle can have stored by this offset")
                                 .arg(index)
                                 .arg(m_pos));
        if (!m_budget.spendBytes(std::int64_t(index + 1 - m_memo.size()) * kMemoEntryBytes))
            return Stop::Error;
        m_memo.resize(std::size_t(index) + 1, kNoValue);
    }
    m_memo[std::size_t(index)] = m_stack.back();
    return Stop::Continue;
}

PickleDecoder::Stop PickleDecoder::memoGet(std::uint64_t index)
{
    if (index >= m_memo.size() || m_memo[std::size_t(index)] == kNoValue)
        return malformed(Text::tr("memo index %1 was never stored").arg(index));
    push(m_memo[std::size_t(index)]);
    return Stop::Continue;
}

std::optional<PickleDecoder::Stop> PickleDecoder::stackOpcode(std::uint8_t op)
{
    switch (op) {
    case kProto:
        if (!need(1))
            return truncated();
        if (std::uint8_t(m_data[m_pos]) > 5)
            return malformed(Text::tr("protocol %1 is newer than 5").arg(int(std::uint8_t(m_data[m_pos]))));
        ++m_pos;
        return Stop::Continue;
    case kFrame: {
        if (!need(8))
            return truncated();
        // Frames only group opcodes for buffered reading. One that runs past the end is not an error yet:
        // decoding goes on so that a truncated file keeps the values before its cut.
        readLe<std::uint64_t>();
        return Stop::Continue;
    }
    case kStop:
        if (m_stack.size() != 1 || !m_marks.empty())
            return malformed(Text::tr("STOP with %1 values on the stack").arg(m_stack.size()));
        m_doc.m_root = m_stack.back();
        m_result.ok = true;
        return Stop::Done;
    case kMark: {
        const int maxDepth = std::min(m_limits.maxDepth, m_budget.limits().maxDepth);
        if (int(m_marks.size()) >= maxDepth)
            return malformed(Text::tr("nesting deeper than %1").arg(maxDepth));
        m_marks.push_back(m_stack.size());
        return Stop::Continue;
    }
    case kPop:
        if (!available(1)) {
            if (m_marks.empty() || m_marks.back() != m_stack.size())
                return malformed(Text::tr("POP with an empty stack"));
            m_marks.pop_back(); // POP of a MARK
        } else {
            pop();
        }
        return Stop::Continue;
    case kPopMark: {
        std::vector<std::uint32_t> items;
        if (!popMark(items))
            return malformed(Text::tr("POP_MARK without a MARK"));
        return Stop::Continue;
    }
    case kDup:
        if (!available(1))
            return malformed(Text::tr("DUP with an empty stack"));
        push(m_stack.back());
        return Stop::Continue;
    default:
        return std::nullopt;
    }
}

std::optional<PickleDecoder::Stop> PickleDecoder::scalarOpcode(std::uint8_t op)
{
    switch (op) {
    case kNone:
        push(addShared(PickleType::None, 0));
        return Stop::Continue;
    case kNewTrue:
    case kNewFalse:
        push(addShared(PickleType::Bool, op == kNewTrue ? 1 : 0));
        return Stop::Continue;
    case kInt: {
        const std::optional<std::int64_t> value = readDecimalLine();
        if (!value)
            return malformed(Text::tr("INT without a decimal line"));
        // Protocol 0/1 spell booleans as I00/I01.
        push(addShared(PickleType::Int, *value));
        return Stop::Continue;
    }
    case kBinInt:
        if (!need(4))
            return truncated();
        push(addShared(PickleType::Int, readLe<std::int32_t>()));
        return Stop::Continue;
    case kBinInt1:
        if (!need(1))
            return truncated();
        push(addShared(PickleType::Int, readLe<std::uint8_t>()));
        return Stop::Continue;
    case kBinInt2:
        if (!need(2))
            return truncated();
        push(addShared(PickleType::Int, readLe<std::uint16_t>()));
        return Stop::Continue;
    case kLong1:
    case kLong4: {
        std::uint64_t length = 0;
        if (op == kLong1) {
            if (!need(1))
                return truncated();
            length = readLe<std::uint8_t>();
        } else {
            if (!need(4))
                return truncated();
            const std::int32_t signedLength = readLe<std::int32_t>();
            if (signedLength < 0)
                return malformed(Text::tr("negative LONG4 length"));
            length = std::uint64_t(signedLength);
        }
        if (!need(std::size_t(length)))
            return truncated();
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(m_data.data() + m_pos);
        m_pos += std::size_t(length);
        if (length == 0) {
            push(addShared(PickleType::Int, 0));
        } else if (length <= 8) {
            std::uint64_t raw = 0;
            for (std::size_t i = 0; i < length; ++i)
                raw |= std::uint64_t(bytes[i]) << (8 * i);
            if (length < 8 && (bytes[length - 1] & 0x80))
                raw |= ~std::uint64_t(0) << (8 * length); // sign extension
            push(addShared(PickleType::Int, std::int64_t(raw)));
        } else {
            // Two's complement little-endian beyond 64 bits: keep a double approximation.
            const bool negative = bytes[length - 1] & 0x80;
            double value = 0.0;
            for (std::size_t i = length; i-- > 0;)
                value = value * 256.0 + double(negative ? std::uint8_t(~bytes[i]) : bytes[i]);
            push(addReal(PickleType::BigInt, negative ? -(value + 1.0) : value));
        }
        return Stop::Continue;
    }
    case kBinFloat: {
        if (!need(8))
            return truncated();
        std::uint64_t raw = 0;
        for (int i = 0; i < 8; ++i)
            raw = (raw << 8) | std::uint8_t(m_data[m_pos + std::size_t(i)]); // big-endian
        m_pos += 8;
        push(addReal(PickleType::Float, std::bit_cast<double>(raw)));
        return Stop::Continue;
    }
    case kShortBinUnicode:
    case kShortBinString:
    case kShortBinBytes:
    case kBinUnicode:
    case kBinBytes:
    case kBinUnicode8:
    case kBinBytes8:
    case kByteArray8: {
        // Unsigned little-endian length of 1, 4 or 8 bytes, then the bytes.
        const std::size_t width = op == kShortBinUnicode || op == kShortBinString || op == kShortBinBytes ? 1
            : op == kBinUnicode || op == kBinBytes                                                        ? 4
                                                                                                          : 8;
        const bool text = op == kShortBinUnicode || op == kShortBinString || op == kBinUnicode || op == kBinUnicode8;
        if (!need(width))
            return truncated();
        return pushText(text ? PickleType::String : PickleType::Bytes, readUnsigned(width));
        return Stop::Continue;
    }
    case kBinString: {
        if (!need(4))
            return truncated();
        const std::int32_t length = readLe<std::int32_t>();
        if (length < 0)
            return malformed(Text::tr("negative BINSTRING length"));
        return pushText(PickleType::String, std::uint64_t(length));
        return Stop::Continue;
    }
    default:
        return std::nullopt;
    }
}

std::optional<PickleDecoder::Stop> PickleDecoder::containerOpcode(std::uint8_t op)
{
    switch (op) {
    case kEmptyDict:
        push(addContainer(PickleType::Dict));
        return Stop::Continue;
    case kEmptyList:
        push(addContainer(PickleType::List));
        return Stop::Continue;
    case kEmptyTuple:
        push(addContainer(PickleType::Tuple));
        return Stop::Continue;
    case kEmptySet:
        push(addContainer(PickleType::Set));
        return Stop::Continue;
    case kTuple1:
    case kTuple2:
    case kTuple3: {
        const std::size_t count = std::size_t(op - kTuple1) + 1;
        if (!available(count))
            return malformed(Text::tr("a tuple of %1 with fewer values on the stack").arg(count));
        std::vector<std::uint32_t> items(m_stack.end() - std::ptrdiff_t(count), m_stack.end());
        m_stack.resize(m_stack.size() - count);
        push(addContainer(PickleType::Tuple, std::move(items)));
        return Stop::Continue;
    }
    case kTuple:
    case kList:
    case kDict:
    case kFrozenSet: {
        std::vector<std::uint32_t> items;
        if (!popMark(items))
            return malformed(Text::tr("a container opcode without a MARK"));
        if (op == kDict && items.size() % 2 != 0)
            return malformed(Text::tr("a key without a value"));
        const PickleType type = op == kTuple ? PickleType::Tuple
            : op == kList                    ? PickleType::List
            : op == kDict                    ? PickleType::Dict
                                             : PickleType::Set;
        push(addContainer(type, std::move(items)));
        return Stop::Continue;
    }
    case kAppend:
    case kSetItem: {
        const std::size_t count = op == kAppend ? 1 : 2;
        if (!available(count + 1))
            return malformed(Text::tr("too few values on the stack"));
        std::vector<std::uint32_t> items(m_stack.end() - std::ptrdiff_t(count), m_stack.end());
        m_stack.resize(m_stack.size() - count);
        if (const std::optional<QString> problem = extend(m_stack.back(), std::move(items), op))
            return malformed(*problem);
        return Stop::Continue;
    }
    case kAppends:
    case kSetItems:
    case kAddItems: {
        std::vector<std::uint32_t> items;
        if (!popMark(items))
            return malformed(Text::tr("a container opcode without a MARK"));
        if (!available(1))
            return malformed(Text::tr("nothing to add the values to"));
        if (const std::optional<QString> problem = extend(m_stack.back(), std::move(items), op))
            return malformed(*problem);
        return Stop::Continue;
    }
    default:
        return std::nullopt;
    }
}

std::optional<PickleDecoder::Stop> PickleDecoder::memoOpcode(std::uint8_t op)
{
    switch (op) {
    case kMemoize:
        return memoPut(m_memo.size());
    case kBinPut:
    case kLongBinPut:
    case kPut:
    case kBinGet:
    case kLongBinGet:
    case kGet: {
        const bool put = op == kBinPut || op == kLongBinPut || op == kPut;
        std::uint64_t index = 0;
        if (op == kPut || op == kGet) {
            const std::optional<std::int64_t> decimal = readDecimalLine();
            if (!decimal || *decimal < 0)
                return malformed(Text::tr("a memo opcode without a memo index"));
            index = std::uint64_t(*decimal);
        } else {
            const std::size_t width = op == kBinPut || op == kBinGet ? 1 : 4;
            if (!need(width))
                return truncated();
            index = readUnsigned(width);
        }
        return put ? memoPut(index) : memoGet(index);
    }
    default:
        return std::nullopt;
    }
}

PickleDecoder::Stop PickleDecoder::refuseTorch(const QString& what)
{
    error(m_opOffset,
          tr("pickle opcode %1 at offset %2 %3; refused: RunLens reads only tensors, storages and containers "
             "(what torch.load with weights_only=True allows) and never imports or runs code from a file")
              .arg(QLatin1String(opcodeName(m_op)))
              .arg(m_opOffset)
              .arg(what));
    m_refused = true;
    return Stop::Error;
}

PickleDecoder::Stop PickleDecoder::torchOpcode(std::uint8_t op)
{
    switch (op) {
    case kGlobal:
    case kStackGlobal: {
        std::string name;
        if (op == kGlobal) {
            for (int line = 0; line < 2; ++line) {
                const std::size_t end = m_data.find('\n', m_pos);
                if (end == std::string_view::npos)
                    return truncated();
                const std::string_view part = m_data.substr(m_pos, std::min(end - m_pos, kMaxGlobalNameBytes));
                if (line == 1)
                    name.push_back('.');
                name.append(part);
                m_pos = end + 1;
            }
        } else {
            if (!available(2))
                return malformed(tr("STACK_GLOBAL with fewer than two values on the stack"));
            const PickleValue attribute(&m_doc, pop());
            const PickleValue module(&m_doc, pop());
            if (!module.isString() || !attribute.isString())
                return malformed(tr("STACK_GLOBAL of values that are not strings"));
            name.append(module.bytes().substr(0, kMaxGlobalNameBytes));
            name.push_back('.');
            name.append(attribute.bytes().substr(0, kMaxGlobalNameBytes));
        }
        if (!isAllowedTorchGlobal(name))
            return refuseTorch(
                tr("refers to the Python object %1").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
        push(addText(PickleType::Global, name));
        return Stop::Continue;
    }
    case kReduce: {
        if (!available(2))
            return malformed(tr("REDUCE with fewer than two values on the stack"));
        const std::uint32_t args = pop();
        const std::uint32_t callable = pop();
        const PickleValue function(&m_doc, callable);
        const std::string_view name = function.globalName();
        if (name.empty())
            return refuseTorch(tr("calls a value that is not an allowed function"));
        if (!isContainer(args, PickleType::Tuple))
            return malformed(tr("REDUCE arguments are not a tuple"));
        const PickleValue arguments(&m_doc, args);
        if (name == kOrderedDict) {
            if (arguments.size() != 0)
                return malformed(tr("collections.OrderedDict called with arguments"));
            push(addContainer(PickleType::Dict));
        } else if (name == kTorchSize) {
            if (arguments.size() != 1 || !arguments.at(0).isSequence())
                return malformed(tr("torch.Size called without one sequence of sizes"));
            push(addContainer(PickleType::Tuple, itemsOf(arguments.at(0).index())));
        } else if (isTorchCallable(name)) {
            push(addContainer(PickleType::Object, { callable, args }));
        } else {
            return refuseTorch(
                tr("calls %1, which is not a function").arg(QString::fromUtf8(name.data(), qsizetype(name.size()))));
        }
        return Stop::Continue;
    }
    case kBuild: {
        if (!available(2))
            return malformed(tr("BUILD with fewer than two values on the stack"));
        pop(); // the state: attributes of a state dict (_metadata) or of a tensor, not needed to read values
        if (!isContainer(m_stack.back(), PickleType::Dict) && !isContainer(m_stack.back(), PickleType::Object))
            return refuseTorch(tr("sets the state of a value that is neither a dict nor a tensor"));
        return Stop::Continue;
    }
    case kBinPersId: {
        if (!available(1))
            return malformed(tr("BINPERSID with an empty stack"));
        const std::uint32_t id = pop();
        const PickleValue tuple(&m_doc, id);
        if (tuple.type() != PickleType::Tuple || tuple.size() == 0 || tuple.at(0).bytes() != "storage"
            || !tuple.at(0).isString())
            return refuseTorch(tr("names a persistent object that is not a (\"storage\", ...) tuple"));
        push(addContainer(PickleType::PersistentId, { id }));
        return Stop::Continue;
    }
    default:
        return refuseTorch(tr("would import, call or build Python objects"));
    }
}

PickleDecoder::Stop PickleDecoder::unknownOpcode(std::uint8_t op)
{
    if (m_limits.torchWeights
        && (op == kGlobal || op == kStackGlobal || op == kReduce || op == kBuild || op == kBinPersId))
        return torchOpcode(op);
    if (isCodeOpcode(op)) {
        error(m_opOffset, describeCodeOpcode(op, m_opOffset));
        m_refused = true;
        return Stop::Error;
    }
    if (const char* name = opcodeName(op)) {
        error(m_opOffset,
              Text::tr("pickle opcode %1 (0x%2) at offset %3 belongs to the text protocols 0 and 1, which are "
                       "not supported; save the data with protocol 2 or later")
                  .arg(QLatin1String(name))
                  .arg(int(op), 2, 16, QLatin1Char('0'))
                  .arg(m_opOffset));
        return Stop::Error;
    }
    return malformed(Text::tr("unknown opcode"));
}

PickleDecoder::Stop PickleDecoder::step()
{
    m_opOffset = m_pos;
    m_op = std::uint8_t(m_data[m_pos++]);
    // The groups are tried in the order opcodes are most frequent in tensors' pickles: memo and scalars.
    if (const std::optional<Stop> stop = memoOpcode(m_op))
        return *stop;
    if (const std::optional<Stop> stop = scalarOpcode(m_op))
        return *stop;
    if (const std::optional<Stop> stop = containerOpcode(m_op))
        return *stop;
    if (const std::optional<Stop> stop = stackOpcode(m_op))
        return *stop;
    return unknownOpcode(m_op);
}

void PickleDecoder::run()
{
    if (m_data.empty()) {
        error(0, Text::tr("the file is empty; a pickle was expected"));
        return;
    }
    if (!looksLikePickle(m_data)) {
        error(0, Text::tr("not a pickle of protocol 2 or later (it does not start with the PROTO opcode 0x80)"));
        return;
    }
    Stop stop = Stop::Continue;
    for (std::size_t steps = 1; stop == Stop::Continue; ++steps) {
        if (m_pos >= m_data.size()) {
            error(m_pos,
                  Text::tr("the pickle ends at offset %1 before its STOP opcode; the file is truncated").arg(m_pos));
            stop = Stop::Error;
            break;
        }
        if (steps % kProgressEvery == 0) {
            if (m_control.canceled()) {
                error(m_pos, Text::tr("reading was canceled at offset %1").arg(m_pos));
                stop = Stop::Error;
                break;
            }
            m_control.report(int(1000.0 * double(m_pos) / double(m_data.size())));
        }
        const std::size_t offset = m_pos;
        stop = step();
        if (m_budget.exceeded()) {
            m_result.diagnostics.append(m_budget.diagnostic(m_fileName, qint64(offset)));
            stop = Stop::Error;
        }
    }
    if (m_refused) {
        m_doc.m_nodes.clear();
        m_doc.m_texts.clear();
        m_doc.m_items.clear();
    } else if (stop == Stop::Error && !m_result.ok) {
        // Truncated or damaged: what was read stays reachable from the outermost value.
        salvage();
        if (!m_stack.empty())
            m_doc.m_root = m_stack.front();
    }
}

bool looksLikePickle(std::string_view head)
{
    return head.size() >= 2 && std::uint8_t(head[0]) == kProto && std::uint8_t(head[1]) >= 2
        && std::uint8_t(head[1]) <= 5;
}

PickleResult decodePickle(std::string_view data, const QString& fileName, ImportBudget& budget,
                          const ImportControl& control, const PickleLimits& limits)
{
    PickleResult result;
    PickleDecoder decoder(data, fileName, budget, control, limits, result);
    decoder.run();
    return result;
}

PickleResult decodePickle(std::string_view data, const QString& fileName, const ImportControl& control,
                          const PickleLimits& limits)
{
    ImportBudget budget { std::int64_t(data.size()) };
    return decodePickle(data, fileName, budget, control, limits);
}

} // namespace runlens::importers::memory
