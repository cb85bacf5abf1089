(function_definition name: (identifier) @name) @definition.function
(class_definition name: (identifier) @name superclasses: (argument_list)? @bases) @definition.class
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call
(import_statement name: (dotted_name) @name) @reference.import
(import_statement name: (aliased_import name: (dotted_name) @name)) @reference.import
(import_from_statement module_name: (_) @name) @reference.import
(module (assignment left: (identifier) @name right: (_)? @value) @definition.constant (#match? @name "^(_*[A-Z][A-Z0-9_]*|__[a-z][a-z0-9_]*__)$"))
(default_parameter name: (identifier) @name value: (_) @value) @definition.default
(typed_default_parameter name: (identifier) @name value: (_) @value) @definition.default
(raise_statement . [(call function: [(identifier) @name (attribute attribute: (identifier) @name)]) (identifier) @name (attribute attribute: (identifier) @name)]) @reference.raise
(except_clause . [(identifier) @name (attribute attribute: (identifier) @name) (tuple [(identifier) @name (attribute attribute: (identifier) @name)])]) @reference.except
(except_clause . (as_pattern . [(identifier) @name (attribute attribute: (identifier) @name) (tuple [(identifier) @name (attribute attribute: (identifier) @name)])] alias: (as_pattern_target (identifier) @bound))) @reference.except
