(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function
(class_declaration name: (identifier) @name (class_heritage)? @bases) @definition.class
(method_definition name: (property_identifier) @name) @definition.method
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(import_statement source: (string) @name) @reference.import
(call_expression function: (identifier) @_req arguments: (arguments (string) @name) (#eq? @_req "require")) @reference.import
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @value (#not-match? @value "^require\\(")) @definition.constant))
(program (export_statement declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_) @value (#not-match? @value "^require\\(")) @definition.constant)))
(formal_parameters (assignment_pattern left: (identifier) @name right: (_) @value) @definition.default)
(throw_statement (new_expression constructor: [(identifier) (member_expression)] @name)) @reference.raise
(throw_statement (call_expression function: [(identifier) (member_expression)] @name)) @reference.raise
(throw_statement (identifier) @name) @reference.raise
(catch_clause parameter: (identifier) @_error body: (statement_block (if_statement condition: (parenthesized_expression (binary_expression left: (identifier) @_tested operator: "instanceof" right: [(identifier) (member_expression)] @name))) (#eq? @_tested @_error))) @reference.except
