#pragma once

#include "models/summary/summarydata.h"

class QTextCursor;
class QTextDocument;

namespace runlens::widgets::images {

/// Writes a text summary value at `cursor` the way TensorBoard's text dashboard shows it: a single text
/// (rank 0) as Markdown (JSON as a code block), a rank-1 tensor as a bulleted list of Markdown items (one
/// item as the text itself), a rank-2 tensor as a table
/// with a Markdown cell per entry. Higher ranks are shown as a table of their last dimension.
void appendSummaryText(QTextCursor& cursor, const models::summary::SummaryText& text);

/// Replaces the document's content with one step's text.
void renderSummaryText(QTextDocument* document, const models::summary::SummaryText& text);

/// Replaces the document's content with every step of the series, newest first, each under a "Step N"
/// heading, like TensorBoard's text dashboard.
void renderAllSteps(QTextDocument* document, const models::summary::TextSeries& series);

/// "text", "list of 3", "2 × 3 table" for the status line of a card.
QString describeTextShape(const models::summary::SummaryText& text);

} // namespace runlens::widgets::images
