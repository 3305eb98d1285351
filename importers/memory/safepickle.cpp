#include "importers/memory/safepickleparts.h"

namespace runlens::importers::memory {

using namespace detail;

namespace {

// Picklers number memo entries consecutively; a larger jump is damage and must not size the memo.
constexpr std::uint64_t kMaxMemoGap = 1u << 20;
constexpr std::int64_t kMemoEntryBytes = sizeof(std::uint32_t);
constexpr std::size_t kProgressEvery = 1u << 16;

} // namespace

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
