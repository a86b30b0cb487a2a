// SPDX-License-Identifier: MIT
// Help menu texts: the keyboard shortcuts and a short tour of what each tab teaches.
#pragma once

#include <QString>

namespace ts::help {

/// The shortcuts as an HTML table (Help > Keyboard Shortcuts).
QString shortcutsHtml();
/// What each tab shows and how to read it (Help > Tour of the Tabs).
QString tourHtml();
/// Help > About.
QString aboutHtml();

} // namespace ts::help
