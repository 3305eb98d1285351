#include "models/tensor/tensorslice.h"

#include <QCoreApplication>

#include <limits>

namespace runlens::models::tensor {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::tensor)
};

struct Scanner
{
    const QString& text;
    int pos = 0;
    int end = 0;

    void skipSpaces()
    {
        while (pos < end && text[pos].isSpace())
            ++pos;
    }
    bool atEnd() const { return pos >= end; }
    QChar peek() const { return pos < end ? text[pos] : QChar(); }
};

/// Reads an optionally signed decimal integer at the scanner; nullopt with `error` set when there is
/// something else or it does not fit in 64 bits; nullopt with no error when the field is empty.
std::optional<std::int64_t> readInteger(Scanner& s, QString& error, int& errorPosition)
{
    s.skipSpaces();
    const int begin = s.pos;
    bool negative = false;
    if (s.peek() == u'-' || s.peek() == u'+') {
        negative = s.peek() == u'-';
        ++s.pos;
        s.skipSpaces();
    }
    if (!s.peek().isDigit()) {
        if (s.pos != begin) {
            error = Text::tr("a sign must be followed by digits");
            errorPosition = s.pos;
        }
        s.pos = begin;
        return std::nullopt;
    }
    // Accumulate negatively so that the most negative 64-bit value fits too.
    std::int64_t value = 0;
    while (s.peek().isDigit()) {
        const int digit = s.peek().digitValue();
        if (value < (std::numeric_limits<std::int64_t>::min() + digit) / 10) {
            error = Text::tr("the number is too large");
            errorPosition = begin;
            return std::nullopt;
        }
        value = value * 10 - digit;
        ++s.pos;
    }
    if (!negative) {
        if (value == std::numeric_limits<std::int64_t>::min()) {
            error = Text::tr("the number is too large");
            errorPosition = begin;
            return std::nullopt;
        }
        value = -value;
    }
    s.skipSpaces();
    return value;
}

SliceParseResult failure(const QString& message, int position)
{
    SliceParseResult result;
    result.error = message;
    result.errorPosition = position;
    return result;
}

} // namespace

SliceParseResult parseSlice(const QString& expression)
{
    Scanner s { expression, 0, int(expression.size()) };
    s.skipSpaces();
    while (s.end > s.pos && expression[s.end - 1].isSpace())
        --s.end;
    if (s.peek() == u'[') {
        if (s.end - 1 <= s.pos || expression[s.end - 1] != u']')
            return failure(Text::tr("'[' is not closed by ']'"), s.pos);
        ++s.pos;
        --s.end;
    } else if (s.end > s.pos && expression[s.end - 1] == u']') {
        return failure(Text::tr("']' without '['"), s.end - 1);
    }
    s.skipSpaces();

    SliceParseResult result;
    if (s.atEnd())
        return result; // `[]` and the empty expression: the whole tensor
    bool sawEllipsis = false;
    while (true) {
        s.skipSpaces();
        SliceItem item;
        item.position = s.pos;
        if (s.atEnd() || s.peek() == u',')
            return failure(Text::tr("an index is missing"), s.pos);
        if (expression.mid(s.pos, 3) == QLatin1String("...")) {
            if (sawEllipsis)
                return failure(Text::tr("only one '...' is allowed"), s.pos);
            sawEllipsis = true;
            item.kind = SliceItem::Kind::Ellipsis;
            s.pos += 3;
            s.skipSpaces();
        } else {
            QString error;
            int errorPosition = -1;
            std::optional<std::int64_t> parts[3];
            int colons = 0;
            parts[0] = readInteger(s, error, errorPosition);
            while (error.isEmpty() && s.peek() == u':') {
                if (++colons > 2)
                    return failure(Text::tr("a range has at most two ':'"), s.pos);
                ++s.pos;
                parts[colons] = readInteger(s, error, errorPosition);
            }
            if (!error.isEmpty())
                return failure(error, errorPosition);
            if (colons == 0) {
                if (!parts[0])
                    return failure(Text::tr("expected an integer, a range or '...'"), s.pos);
                item.kind = SliceItem::Kind::Index;
                item.index = *parts[0];
            } else {
                item.kind = SliceItem::Kind::Range;
                item.start = parts[0];
                item.stop = parts[1];
                item.step = parts[2];
                if (item.step && *item.step == 0)
                    return failure(Text::tr("the step of a range cannot be zero"), item.position);
            }
        }
        result.items.push_back(item);
        if (s.atEnd())
            break;
        if (s.peek() != u',')
            return failure(Text::tr("unexpected '%1'").arg(s.peek()), s.pos);
        ++s.pos;
        s.skipSpaces();
        if (s.atEnd())
            break; // a trailing comma, as in `a[0,]`
    }
    return result;
}

SliceResult applySlice(const Tensor& tensor, const std::vector<SliceItem>& items)
{
    SliceResult result;
    int consumed = 0; // dimensions the entries other than `...` stand for
    for (const SliceItem& item : items)
        consumed += item.kind == SliceItem::Kind::Ellipsis ? 0 : 1;
    if (consumed > tensor.rank()) {
        // Point at the first entry without a dimension left for it.
        int position = 0;
        int seen = 0;
        for (const SliceItem& item : items) {
            if (item.kind != SliceItem::Kind::Ellipsis && ++seen > tensor.rank()) {
                position = item.position;
                break;
            }
        }
        result.error = Text::tr("column %1: too many indices: %2 for a tensor of %3 dimensions")
                           .arg(position + 1)
                           .arg(consumed)
                           .arg(tensor.rank());
        return result;
    }

    Tensor view = tensor;
    view.shape.clear();
    view.strides.clear();
    int dim = 0;
    auto keepWhole = [&](int count) {
        for (int k = 0; k < count; ++k, ++dim) {
            view.shape.push_back(tensor.shape[dim]);
            view.strides.push_back(tensor.strides[dim]);
        }
    };
    for (const SliceItem& item : items) {
        if (item.kind == SliceItem::Kind::Ellipsis) {
            keepWhole(tensor.rank() - consumed);
            continue;
        }
        const std::int64_t extent = tensor.shape[dim];
        const std::int64_t stride = tensor.strides[dim];
        if (item.kind == SliceItem::Kind::Index) {
            const std::int64_t index = item.index < 0 ? item.index + extent : item.index;
            if (index < 0 || index >= extent) {
                result.error = Text::tr("column %1: index %2 is out of range for dimension %3 of size %4")
                                   .arg(item.position + 1)
                                   .arg(item.index)
                                   .arg(dim)
                                   .arg(extent);
                return result;
            }
            view.offset += index * stride;
            ++dim;
            continue;
        }
        // Python's slice.indices(): missing bounds depend on the direction, others are clipped.
        const std::int64_t step = item.step.value_or(1);
        std::int64_t start = 0;
        std::int64_t stop = 0;
        auto clip = [&](std::int64_t bound, std::int64_t low, std::int64_t high) {
            if (bound < 0)
                bound += extent;
            return bound < low ? low : (bound > high ? high : bound);
        };
        if (step > 0) {
            start = item.start ? clip(*item.start, 0, extent) : 0;
            stop = item.stop ? clip(*item.stop, 0, extent) : extent;
        } else {
            start = item.start ? clip(*item.start, -1, extent - 1) : extent - 1;
            stop = item.stop ? clip(*item.stop, -1, extent - 1) : -1;
        }
        std::int64_t length = 0;
        if (step > 0 && stop > start)
            length = (stop - start + step - 1) / step;
        else if (step < 0 && start > stop)
            length = (start - stop - step - 1) / -step;
        if (length > 0)
            view.offset += start * stride;
        view.shape.push_back(length);
        view.strides.push_back(stride * step);
        ++dim;
    }
    keepWhole(tensor.rank() - dim);
    result.tensor = std::move(view);
    return result;
}

SliceResult sliceTensor(const Tensor& tensor, const QString& expression)
{
    const SliceParseResult parsed = parseSlice(expression);
    if (!parsed.ok()) {
        SliceResult result;
        result.error = Text::tr("column %1: %2").arg(parsed.errorPosition + 1).arg(parsed.error);
        return result;
    }
    return applySlice(tensor, parsed.items);
}

} // namespace runlens::models::tensor
