(class_declaration (type_identifier) @name (delegation_specifier)? @bases) @definition.class
(object_declaration (type_identifier) @name (delegation_specifier)? @bases) @definition.class
(function_declaration (simple_identifier) @name) @definition.function
(call_expression (simple_identifier) @name) @reference.call
(call_expression (navigation_expression (_) @receiver (navigation_suffix (simple_identifier) @name))) @reference.call
(import_header (identifier) @name) @reference.import
(property_declaration (modifiers (property_modifier) @_const) (variable_declaration (simple_identifier) @name) . (_) @value (#eq? @_const "const")) @definition.constant
(source_file (property_declaration (binding_pattern_kind) @_val (variable_declaration (simple_identifier) @name) . (_) @value (#eq? @_val "val") (#match? @name "^[A-Z][A-Z0-9_]*$")) @definition.constant)
(function_value_parameters (parameter (simple_identifier) @name) . [(integer_literal) (long_literal) (real_literal) (hex_literal) (bin_literal) (unsigned_literal) (boolean_literal) (character_literal) (string_literal) (null_literal) (simple_identifier) (navigation_expression) (call_expression) (prefix_expression) (additive_expression) (multiplicative_expression) (collection_literal) (lambda_literal)] @value) @definition.default
(jump_expression "throw" (call_expression (simple_identifier) @name)) @reference.raise
(jump_expression "throw" (simple_identifier) @name) @reference.raise
(catch_block (simple_identifier) @bound (user_type) @name) @reference.except
