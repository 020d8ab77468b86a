"""The MCP server: the registry's tools for Claude, ChatGPT or any MCP client, under the console's rules."""
