"""Load YAML into typed, validated models; every problem carries file:line:col."""
