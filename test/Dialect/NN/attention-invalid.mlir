// RUN: amp-opt %s -split-input-file -verify-diagnostics

// Every error of nn.attention's and nn.attention_grad's shape inference.

func.func @rank1(%q: tensor<8xf32>) {
  // expected-error @+2 {{query must have rank >= 2 ([..., Sq, D]), got [8]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %q, %q : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>)
  return
}

// -----

func.func @element_types(%q: tensor<4x8xf32>, %k: tensor<4x8xf16>) {
  // expected-error @+2 {{query and key must have the same element type, got 'f32' and 'f16'}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %q : (tensor<4x8xf32>, tensor<4x8xf16>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @value_element_type(%q: tensor<4x8xf32>, %v: tensor<4x8xbf16>) {
  // expected-error @+2 {{query and value must have the same element type, got 'f32' and 'bf16'}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %q, %v : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xf32>)
  return
}

// -----

func.func @ranks(%q: tensor<2x4x8xf32>, %k: tensor<4x8xf32>) {
  // expected-error @+2 {{query, key and value must have the same rank, got [2, 4, 8], [4, 8] and [4, 8]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k : (tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @head_size(%q: tensor<4x8xf32>, %k: tensor<6x4xf32>, %v: tensor<6x8xf32>) {
  // expected-error @+2 {{key must have shape [6, 8] (the query's batch dimensions, then [Sk, D]; its heads may divide the query's), got [6, 4]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %v : (tensor<4x8xf32>, tensor<6x4xf32>, tensor<6x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

// Query and key do not broadcast against each other.
func.func @batch(%q: tensor<2x3x4x8xf32>, %k: tensor<1x3x6x8xf32>) {
  // expected-error @+2 {{key must have shape [2, 3, 6, 8] (the query's batch dimensions, then [Sk, D]; its heads may divide the query's), got [1, 3, 6, 8]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k : (tensor<2x3x4x8xf32>, tensor<1x3x6x8xf32>, tensor<1x3x6x8xf32>) -> (tensor<2x3x4x8xf32>, tensor<2x3x4xf32>)
  return
}

// -----

// Grouped-query attention: the key's heads must divide the query's.
func.func @kv_heads(%q: tensor<2x4x4x8xf32>, %k: tensor<2x3x6x8xf32>) {
  // expected-error @+2 {{key has 3 heads (dimension 1), which neither equals nor divides the query's 4}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k : (tensor<2x4x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x8xf32>) -> (tensor<2x4x4x8xf32>, tensor<2x4x4xf32>)
  return
}

// -----

// More key heads than query heads.
func.func @kv_heads_more(%q: tensor<2x4x8xf32>, %k: tensor<4x6x8xf32>) {
  // expected-error @+2 {{key has 4 heads (dimension 0), which neither equals nor divides the query's 2}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k : (tensor<2x4x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  return
}

// -----

// A query without heads cannot share a key's.
func.func @kv_heads_zero(%q: tensor<0x4x8xf32>, %k: tensor<2x6x8xf32>) {
  // expected-error @+2 {{key has 2 heads (dimension 0), which neither equals nor divides the query's 0}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k : (tensor<0x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> (tensor<0x4x8xf32>, tensor<0x4xf32>)
  return
}

// -----

// The value's heads must be the key's.
func.func @value_heads(%q: tensor<4x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<4x6x8xf32>) {
  // expected-error @+2 {{value must have shape [2, 6, 8] (the key's batch dimensions and Sk, then Dv), got [4, 6, 8]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %v : (tensor<4x4x8xf32>, tensor<2x6x8xf32>, tensor<4x6x8xf32>) -> (tensor<4x4x8xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @key_count(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<5x8xf32>) {
  // expected-error @+2 {{value must have shape [6, 8] (the key's batch dimensions and Sk, then Dv), got [5, 8]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %v : (tensor<4x8xf32>, tensor<6x8xf32>, tensor<5x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @mask_type(%q: tensor<4x8xf16>, %m: tensor<4x4xbf16>) {
  // expected-error @+2 {{mask must be f32 or the query's element type 'f16', got 'bf16'}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %q, %q mask %m : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x4xbf16>) -> (tensor<4x8xf16>, tensor<4xf32>)
  return
}

// -----

func.func @mask_shape(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %m: tensor<4x4xf32>) {
  // expected-error @+2 {{mask [4, 4] does not broadcast to the scores' shape [2, 4, 6]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %k, %k mask %m : (tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<4x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>)
  return
}

// -----

// A mask may not widen the scores.
func.func @mask_rank(%q: tensor<4x8xf32>, %m: tensor<2x4x4xf32>) {
  // expected-error @+2 {{mask [2, 4, 4] does not broadcast to the scores' shape [4, 4]}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %q, %q mask %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x4x4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @result_type(%q: tensor<4x8xf32>) {
  // expected-error @+2 {{'nn.attention' op inferred type(s) 'tensor<4x8xf32>', 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf16>', 'tensor<4xf32>'}}
  // expected-error @+1 {{'nn.attention' op failed to infer returned types}}
  %o, %l = nn.attention %q, %q, %q : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf16>, tensor<4xf32>)
  return
}

// -----

func.func @lse_type(%q: tensor<4x8xf16>) {
  // expected-error @+1 {{'nn.attention' op result #1 must be statically shaped tensor of 32-bit float values, but got 'tensor<4xf16>'}}
  %o, %l = nn.attention %q, %q, %q : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4xf16>)
  return
}

// -----

func.func @grad_output(%q: tensor<4x8xf32>, %dy: tensor<4x8xf16>, %lse: tensor<4xf32>) {
  // expected-error @+2 {{grad_output must have the output's type 'tensor<4x8xf32>', got 'tensor<4x8xf16>'}}
  // expected-error @+1 {{'nn.attention_grad' op failed to infer returned types}}
  %dq, %dk, %dv = nn.attention_grad %dy, %q, %q, %q, %q, %lse : (tensor<4x8xf16>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @grad_output_shape(%q: tensor<4x8xf32>, %o: tensor<4x6xf32>, %lse: tensor<4xf32>) {
  // expected-error @+2 {{output must have the forward result's type 'tensor<4x8xf32>', got 'tensor<4x6xf32>'}}
  // expected-error @+1 {{'nn.attention_grad' op failed to infer returned types}}
  %dq, %dk, %dv = nn.attention_grad %o, %q, %q, %q, %o, %lse : (tensor<4x6xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x6xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @grad_lse(%q: tensor<4x8xf32>, %lse: tensor<8xf32>) {
  // expected-error @+2 {{logsumexp must have type 'tensor<4xf32>' (the query's leading dimensions, f32), got 'tensor<8xf32>'}}
  // expected-error @+1 {{'nn.attention_grad' op failed to infer returned types}}
  %dq, %dk, %dv = nn.attention_grad %q, %q, %q, %q, %q, %lse : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @grad_mask(%q: tensor<4x8xf32>, %lse: tensor<4xf32>, %m: tensor<3x4xf32>) {
  // expected-error @+2 {{mask [3, 4] does not broadcast to the scores' shape [4, 4]}}
  // expected-error @+1 {{'nn.attention_grad' op failed to infer returned types}}
  %dq, %dk, %dv = nn.attention_grad %q, %q, %q, %q, %q, %lse mask %m : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<3x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @dropout_without_rate(%q: tensor<4x8xf32>, %seed: tensor<i64>) {
  // expected-error @+1 {{'nn.attention' op has a dropout seed but no dropout_rate}}
  %o, %lse = nn.attention %q, %q, %q dropout %seed : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @dropout_rate_without_seed(%q: tensor<4x8xf32>) {
  // expected-error @+1 {{'nn.attention' op has a dropout_rate but no dropout seed}}
  %o, %lse = nn.attention %q, %q, %q {dropout_rate = 1.000000e-01 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @dropout_rate_one(%q: tensor<4x8xf32>, %seed: tensor<i64>) {
  // expected-error @+1 {{'nn.attention' op dropout_rate must be in [0, 1), got 1}}
  %o, %lse = nn.attention %q, %q, %q dropout %seed {dropout_rate = 1.000000e+00 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @dropout_seed_not_i64(%q: tensor<4x8xf32>, %seed: tensor<i32>) {
  // expected-error @+1 {{operand #3 must be 0D tensor of 64-bit signless integer values}}
  %o, %lse = nn.attention %q, %q, %q dropout %seed {dropout_rate = 1.000000e-01 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>) -> (tensor<4x8xf32>, tensor<4xf32>)
  return
}

// -----

func.func @grad_dropout_rate_negative(%q: tensor<4x8xf32>, %lse: tensor<4xf32>, %seed: tensor<i64>) {
  // expected-error @+1 {{'nn.attention_grad' op dropout_rate must be in [0, 1), got -0.5}}
  %dq, %dk, %dv = nn.attention_grad %q, %q, %q, %q, %q, %lse dropout %seed {dropout_rate = -5.000000e-01 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @grad_dropout_without_rate(%q: tensor<4x8xf32>, %lse: tensor<4xf32>, %seed: tensor<i64>) {
  // expected-error @+1 {{'nn.attention_grad' op has a dropout seed but no dropout_rate}}
  %dq, %dk, %dv = nn.attention_grad %q, %q, %q, %q, %q, %lse dropout %seed : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<i64>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  return
}
