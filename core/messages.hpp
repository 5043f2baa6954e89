// The core's messages about a link, as data. A problem is a code (a row of message_table()) and
// named arguments; its English sentence is the row's template with {name} replaced by the
// argument of that name. The CLI prints the English sentence; the page builds its sentence in its
// own language from the same code and arguments (web/strings/ has a template for every code, and
// a test checks it), so no consumer reads meaning back out of English text.
//
// What a key allows is said the same way: the argument `allowed` holds a row of allowed_forms()
// (a number from {min} to {max}, a whole number, 0 or 1, …), filled from the same arguments.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

struct MessageArg {
    std::string name, value;
};
using MessageArgs = std::vector<MessageArg>;

struct MessageInfo {
    const char* code;
    const char* text;  // English, with {name} for each argument
};
// Every message the parser gives, a row each.
const std::vector<MessageInfo>& message_table();
// Every way of saying what a key allows, a row each: the `allowed` argument names one.
const std::vector<MessageInfo>& allowed_forms();

// The English text of a message (or of an allowed form, for `allowed_text`). A placeholder with
// no argument stays as written, so a missing argument shows in tests instead of vanishing.
std::string message_text(std::string_view code, const MessageArgs& args);
std::string allowed_text(const MessageArgs& args);  // the form named by args' `allowed`
// The value of the argument `name`, or "" when there is none.
std::string_view message_arg(const MessageArgs& args, std::string_view name);

}  // namespace stepwise
