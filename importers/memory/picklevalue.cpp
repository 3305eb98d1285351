#include "importers/memory/safepickle.h"

#include <algorithm>
#include <cmath>
#include <limits>

// Reading the values of a decoded pickle document.

namespace runlens::importers::memory {

PickleType PickleValue::type() const
{
    return m_document ? m_document->m_nodes[m_index].type : PickleType::None;
}

bool PickleValue::isNumber() const
{
    const PickleType t = type();
    return isValid()
        && (t == PickleType::Int || t == PickleType::Bool || t == PickleType::Float || t == PickleType::BigInt);
}

bool PickleValue::isSequence() const
{
    const PickleType t = type();
    return isValid() && (t == PickleType::List || t == PickleType::Tuple);
}

std::int64_t PickleValue::toInt(std::int64_t fallback) const
{
    if (!m_document)
        return fallback;
    const auto& node = m_document->m_nodes[m_index];
    switch (node.type) {
    case PickleType::Int:
    case PickleType::Bool:
        return node.integer;
    case PickleType::Float:
    case PickleType::BigInt:
        if (std::isfinite(node.real()) && std::abs(node.real()) < 9.2e18)
            return std::int64_t(node.real());
        return fallback;
    default:
        return fallback;
    }
}

double PickleValue::toDouble(double fallback) const
{
    if (!m_document)
        return fallback;
    const auto& node = m_document->m_nodes[m_index];
    switch (node.type) {
    case PickleType::Int:
    case PickleType::Bool:
        return double(node.integer);
    case PickleType::Float:
    case PickleType::BigInt:
        return node.real();
    default:
        return fallback;
    }
}

std::string_view PickleValue::bytes() const
{
    const PickleType t = type();
    if (!m_document || (t != PickleType::String && t != PickleType::Bytes))
        return {};
    return m_document->m_texts[std::size_t(m_document->m_nodes[m_index].integer)];
}

std::string_view PickleValue::globalName() const
{
    if (!m_document || type() != PickleType::Global)
        return {};
    return m_document->m_texts[std::size_t(m_document->m_nodes[m_index].integer)];
}

QString PickleValue::toString() const
{
    const std::string_view text = bytes();
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

namespace {

bool isContainerType(PickleType t)
{
    return t == PickleType::List || t == PickleType::Tuple || t == PickleType::Dict || t == PickleType::Set
        || t == PickleType::Object || t == PickleType::PersistentId;
}

} // namespace

std::size_t PickleValue::size() const
{
    const PickleType t = type();
    if (!m_document || !isContainerType(t))
        return 0;
    const std::size_t n = m_document->m_items[std::size_t(m_document->m_nodes[m_index].integer)].size();
    return t == PickleType::Dict ? n / 2 : n;
}

PickleValue PickleValue::at(std::size_t i) const
{
    const PickleType t = type();
    if (!m_document || !isContainerType(t) || t == PickleType::Dict || i >= size())
        return {};
    return { m_document, m_document->m_items[std::size_t(m_document->m_nodes[m_index].integer)][i] };
}

PickleValue PickleValue::keyAt(std::size_t i) const
{
    if (type() != PickleType::Dict || !m_document || i >= size())
        return {};
    return { m_document, m_document->m_items[std::size_t(m_document->m_nodes[m_index].integer)][2 * i] };
}

PickleValue PickleValue::valueAt(std::size_t i) const
{
    if (type() != PickleType::Dict || !m_document || i >= size())
        return {};
    return { m_document, m_document->m_items[std::size_t(m_document->m_nodes[m_index].integer)][2 * i + 1] };
}

PickleValue PickleValue::value(std::string_view key) const
{
    if (type() != PickleType::Dict || !m_document)
        return {};
    const auto& items = m_document->m_items[std::size_t(m_document->m_nodes[m_index].integer)];
    for (std::size_t i = items.size() / 2; i-- > 0;) {
        const PickleValue k(m_document, items[2 * i]);
        if (k.isString() && k.bytes() == key)
            return { m_document, items[2 * i + 1] };
    }
    return {};
}

} // namespace runlens::importers::memory
